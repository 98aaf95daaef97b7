// BlobFetcher in seeded many-node runs, driven by the test as BlobService drives it: a blob
// moved in chunks and verified, a corrupt holder bypassed and remembered, refusals, shared
// fetches, the deadline and shutdown.
#include "kademlia/blobs/blob_fetcher.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "holder_fixture.h"

namespace skillnode::kademlia::blobs {
namespace {

std::string Blob(size_t size, char seed) {
  std::string out(size, ' ');
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<char>(seed + (i * 5 + i / 11) % 26);
  return out;
}

// The holder network (holder_fixture.h) with a BlobFetcher of its own on node `kFetcher`, which
// RunFor drives the way BlobService::OnTimer does.
struct FetcherNet : HolderNet {
  static constexpr size_t kFetcher = kClient;
  BlobStats stats;
  std::unique_ptr<BlobFetcher> fetcher;

  explicit FetcherNet(BlobConfig config = {}, uint64_t seed = 77,
                      transport::Duration latency = transport::Millis(10))
      : HolderNet(seed, latency) {
    fetcher = std::make_unique<BlobFetcher>(net.node(kFetcher), own, config, net.rng(), stats);
  }

  void RunFor(transport::Duration duration) {
    const transport::TimePoint until = net.now() + duration;
    transport::TimePoint next_tick = net.now();
    while (net.now() < until) {
      net.RunFor(transport::Millis(20));
      fetcher->PumpIfDue(net.now());
      if (net.now() >= next_tick) {
        next_tick = net.now() + transport::Seconds(1);
        fetcher->OnTick(net.now());
      }
    }
  }

  wire::WireContact Contact(size_t i) { return {net.node(i).id(), net.endpoint(i)}; }

  // A node that knows nothing of the fetcher and whose routing table would not take it: as a
  // holder, it must verify the fetcher's address before it serves a chunk. None in some seeds.
  std::optional<size_t> Stranger() {
    const NodeId fetcher_id = net.node(kFetcher).id();
    for (size_t i = 0; i < kNodes; ++i) {
      const Node& node = net.node(i);
      if (i != kFetcher && !node.routing_table().Wants(fetcher_id, net.now()) &&
          node.routing_table().Find(fetcher_id) == std::nullopt &&
          node.ProvenKey(fetcher_id) == nullptr) {
        return i;
      }
    }
    return std::nullopt;
  }

  std::optional<FetchOutcome> Fetch(const std::string& bytes, std::optional<size_t> publisher,
                                    transport::Duration run = transport::Seconds(30)) {
    std::optional<FetchOutcome> outcome;
    std::optional<NodeId> publisher_id;
    if (publisher) publisher_id = net.node(*publisher).id();
    fetcher->Fetch(net.now(), DigestOf(bytes), bytes.size(), publisher_id,
                   [&outcome](const FetchOutcome& o) { outcome = o; });
    RunFor(run);
    return outcome;
  }
};

TEST_CASE(
    "the blob fetcher moves a blob from its holder in chunks and hands out the verified bytes",
    "[unit]") {
  FetcherNet lab;
  const std::string bytes = Blob(40 * 1000 + 17, 'a');
  lab.Hold(3, bytes);
  lab.net.RunFor(transport::Seconds(5));
  const auto got = lab.Fetch(bytes, 3);
  REQUIRE(got.has_value());
  INFO(got->error);
  REQUIRE(got->status == FetchOutcome::Status::kOk);
  CHECK(*got->bytes == bytes);
  CHECK(got->holder == lab.net.node(3).id());
  CHECK(lab.stats.chunks_fetched == 41);
  CHECK(lab.stats.fetches_ok == 1);
  CHECK(lab.fetcher->running() == 0);
}

TEST_CASE("the blob fetcher bypasses a corrupt copy and does not ask it again for that digest",
          "[unit]") {
  FetcherNet lab;
  const std::string bytes = Blob(6000, 'g');
  lab.Hold(3, bytes);  // the publisher, asked last
  lab.Hold(9, bytes);  // the only copy, asked first, rotted
  lab.sources[9]->corrupt = true;
  lab.net.RunFor(transport::Seconds(5));
  const auto first = lab.Fetch(bytes, 3);
  REQUIRE(first.has_value());
  REQUIRE(first->status == FetchOutcome::Status::kOk);
  CHECK(first->holder == lab.net.node(3).id());
  REQUIRE(first->attempts.size() == 1);
  CHECK(first->attempts[0].id == lab.net.node(9).id());
  CHECK(first->attempts[0].failure == HolderFailure::kCorrupt);
  CHECK(lab.fetcher->bad_holders() == 1);
  CHECK(lab.stats.holder_failures[static_cast<size_t>(HolderFailure::kCorrupt)] == 1);

  const auto again = lab.Fetch(bytes, 3);
  REQUIRE(again.has_value());
  REQUIRE(again->status == FetchOutcome::Status::kOk);
  CHECK(again->attempts.empty());
}

TEST_CASE("the blob fetcher refuses a blob over its size limit and fetches over its count limit",
          "[unit]") {
  BlobConfig config;
  config.fetch_bytes_max = 5000;
  config.fetches_max = 1;
  FetcherNet lab(config);
  const std::string small = Blob(3000, 's');
  const std::string other = Blob(3000, 't');
  lab.Hold(3, small);
  lab.Hold(4, other);
  lab.net.RunFor(transport::Seconds(5));

  std::optional<FetchOutcome> large;
  lab.fetcher->Fetch(lab.net.now(), DigestOf(Blob(6000, 'l')), 6000, std::nullopt,
                     [&large](const FetchOutcome& o) { large = o; });
  REQUIRE(large.has_value());  // refused at once
  CHECK(large->status == FetchOutcome::Status::kTooLarge);

  std::vector<FetchOutcome> shared;
  std::optional<FetchOutcome> busy;
  for (int i = 0; i < 2; ++i) {
    lab.fetcher->Fetch(lab.net.now(), DigestOf(small), small.size(), lab.net.node(3).id(),
                       [&shared](const FetchOutcome& o) { shared.push_back(o); });
  }
  lab.fetcher->Fetch(lab.net.now(), DigestOf(other), other.size(), lab.net.node(4).id(),
                     [&busy](const FetchOutcome& o) { busy = o; });
  REQUIRE(busy.has_value());
  CHECK(busy->status == FetchOutcome::Status::kBusy);
  CHECK(lab.fetcher->running() == 1);
  CHECK(lab.stats.fetches_refused == 2);
  lab.RunFor(transport::Seconds(20));
  REQUIRE(shared.size() == 2);  // one transfer, both callers answered
  CHECK(shared[0].status == FetchOutcome::Status::kOk);
  CHECK(shared[1].status == FetchOutcome::Status::kOk);
  CHECK(lab.stats.fetches_ok == 1);
}

TEST_CASE("a fetch whose only holder went silent fails at its deadline", "[unit]") {
  BlobConfig config;
  config.fetch_timeout = transport::Seconds(3);
  FetcherNet lab(config);
  const std::string bytes = Blob(5000, 'd');
  lab.Hold(9, bytes);
  lab.net.RunFor(transport::Seconds(5));
  lab.net.SetSilent(9, true);
  const auto got = lab.Fetch(bytes, std::nullopt, transport::Seconds(10));
  REQUIRE(got.has_value());
  CHECK(got->status == FetchOutcome::Status::kFailed);
  CHECK(got->error.find("within 3 s") != std::string::npos);
  CHECK(lab.stats.fetches_failed == 1);
  CHECK(lab.fetcher->running() == 0);
}

TEST_CASE("the blob fetcher reports no holder for a digest nobody holds", "[unit]") {
  FetcherNet lab;
  const auto got = lab.Fetch(Blob(100, 'n'), std::nullopt);
  REQUIRE(got.has_value());
  CHECK(got->status == FetchOutcome::Status::kNoHolder);
  CHECK(got->error.find("is not known") != std::string::npos);
  CHECK(lab.stats.fetches_no_holder == 1);
}

TEST_CASE("shutting the blob fetcher down ends every running fetch", "[unit]") {
  FetcherNet lab;
  const std::string bytes = Blob(5000, 'x');
  lab.Hold(3, bytes);
  lab.net.RunFor(transport::Seconds(5));
  std::optional<FetchOutcome> outcome;
  lab.fetcher->Fetch(lab.net.now(), DigestOf(bytes), bytes.size(), lab.net.node(3).id(),
                     [&outcome](const FetchOutcome& o) { outcome = o; });
  CHECK(lab.fetcher->running() == 1);
  lab.fetcher->Shutdown();
  REQUIRE(outcome.has_value());
  CHECK(outcome->status == FetchOutcome::Status::kFailed);
  CHECK(outcome->error == "the node is shutting down");
  CHECK(lab.fetcher->running() == 0);
  lab.RunFor(transport::Seconds(10));  // late answers to the ended fetch are ignored
  CHECK(lab.stats.fetches_failed == 1);
}

// Seed 1 once ended a fetch with "asked to wait 641 times": the holder's routing table had no
// room for the fetcher, so the holder never pinged it to verify its address, and a holder
// serves chunks only to verified peers. A holder must verify a requester it cannot add.
TEST_CASE("a holder whose routing table has no room for the fetcher still serves it", "[unit]") {
  for (const uint64_t seed : {uint64_t{1}, uint64_t{77}}) {
    INFO("seed " << seed);
    FetcherNet lab({}, seed);
    const std::optional<size_t> holder = lab.Stranger();
    const std::string bytes = Blob(20 * 1000, 'w');
    lab.Hold(*holder, bytes);
    lab.net.RunFor(transport::Seconds(5));
    const auto got = lab.Fetch(bytes, *holder);
    REQUIRE(got.has_value());
    INFO(got->error);
    CHECK(got->status == FetchOutcome::Status::kOk);
    CHECK(got->holder == lab.net.node(*holder).id());
    CHECK(got->attempts.empty());
    CHECK(lab.services[*holder]->stats().chunks_served >= 20);
  }
}

TEST_CASE("a fetcher of named holders moves a blob from the holder it names, never locating",
          "[unit]") {
  FetcherNet lab;
  lab.fetcher =
      std::make_unique<BlobFetcher>(lab.net.node(FetcherNet::kFetcher), BlobConfig{}, lab.stats);
  const std::string bytes = Blob(8 * 1024, 'n');
  lab.sources[4]->blobs[DigestOf(bytes)] = bytes;  // held, never announced
  std::optional<FetchOutcome> got;
  lab.fetcher->FetchFrom(lab.net.now(), DigestOf(bytes), bytes.size(), lab.Contact(4),
                         [&got](const FetchOutcome& o) { got = o; });
  CHECK(lab.fetcher->Running(DigestOf(bytes)));
  lab.RunFor(transport::Seconds(5));
  REQUIRE(got.has_value());
  INFO(got->error);
  REQUIRE(got->status == FetchOutcome::Status::kOk);
  CHECK(*got->bytes == bytes);
  CHECK(got->holder == lab.net.node(4).id());
  CHECK(lab.stats.chunks_fetched == 9);
  CHECK_FALSE(lab.fetcher->Running(DigestOf(bytes)));
}

TEST_CASE("a holder named while a fetch from a silent one runs is asked next and serves it",
          "[unit]") {
  FetcherNet lab;
  const std::string bytes = Blob(3000, 'q');
  lab.sources[5]->blobs[DigestOf(bytes)] = bytes;
  lab.sources[6]->blobs[DigestOf(bytes)] = bytes;
  lab.net.SetSilent(5, true);
  std::vector<FetchOutcome> got;
  for (size_t holder : {5, 6, 5}) {  // the silent one again joins without being added twice
    lab.fetcher->FetchFrom(lab.net.now(), DigestOf(bytes), bytes.size(), lab.Contact(holder),
                           [&got](const FetchOutcome& o) { got.push_back(o); });
  }
  CHECK(lab.fetcher->running() == 1);
  lab.RunFor(transport::Seconds(20));
  REQUIRE(got.size() == 3);
  for (const FetchOutcome& outcome : got) {
    INFO(outcome.error);
    CHECK(outcome.status == FetchOutcome::Status::kOk);
    CHECK(outcome.holder == lab.net.node(6).id());
    REQUIRE(outcome.attempts.size() == 1);
    CHECK(outcome.attempts[0].id == lab.net.node(5).id());
    CHECK(outcome.attempts[0].failure == HolderFailure::kTimeout);
  }
}

TEST_CASE("a named holder whose bytes hash wrong fails the fetch and is remembered", "[unit]") {
  FetcherNet lab;
  const std::string bytes = Blob(2500, 'w');
  lab.sources[7]->blobs[DigestOf(bytes)] = bytes;
  lab.sources[7]->corrupt = true;
  std::optional<FetchOutcome> got;
  lab.fetcher->FetchFrom(lab.net.now(), DigestOf(bytes), bytes.size(), lab.Contact(7),
                         [&got](const FetchOutcome& o) { got = o; });
  lab.RunFor(transport::Seconds(5));
  REQUIRE(got.has_value());
  CHECK(got->status == FetchOutcome::Status::kFailed);
  REQUIRE(got->attempts.size() == 1);
  CHECK(got->attempts[0].failure == HolderFailure::kCorrupt);
  CHECK(got->error.find("corrupt") != std::string::npos);
  CHECK(lab.fetcher->bad_holders() == 1);
}

// A fetch under 10 % loss once failed with "asked to wait 641 times with no chunk sent": the
// holder's ping that verifies the fetcher's address was lost (or its answer), and the fetcher,
// told to wait by a full window of refusals every 100 ms, gave the holder up before the ping's
// one-second timeout let the holder verify again. A holder that asks to wait is now given
// holder_wait_max (5 s) with no chunk before it counts as gone. Seeds 16, 17 and 35 failed.
TEST_CASE("under 10 % loss a holder that must first verify the fetcher still serves the blob",
          "[unit]") {
  const std::string bytes = Blob(30 * 1000, 'l');
  size_t fetches = 0;
  for (uint64_t seed : {16, 17, 35, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12}) {
    INFO("seed " << seed);
    FetcherNet lab({}, seed);
    const std::optional<size_t> stranger = lab.Stranger();
    if (!stranger) continue;
    const size_t holder = *stranger;
    ++fetches;
    lab.sources[holder]->blobs[DigestOf(bytes)] = bytes;
    lab.net.SetLoss(0.10);
    std::optional<FetchOutcome> got;
    lab.fetcher->FetchFrom(lab.net.now(), DigestOf(bytes), bytes.size(), lab.Contact(holder),
                           [&got](const FetchOutcome& o) { got = o; });
    lab.RunFor(transport::Seconds(30));
    REQUIRE(got.has_value());
    INFO(got->error);
    CHECK(got->status == FetchOutcome::Status::kOk);
    CHECK(got->attempts.empty());
  }
  CHECK(fetches >= 10);
}

// Under 10 % loss a fetch once failed with both holders' bytes hashing wrong: an answer that
// came after its attempt was given up delivered the chunk while a later attempt of it was in
// flight; that attempt was lost, its expiry wanted the chunk again, and the next answer counted
// it twice, so the transfer ended with a chunk never received. A 300 ms one-way delay makes
// every first attempt's answer late (the first timeout is 400 ms, the round trip 600 ms).
TEST_CASE(
    "under 10 % loss and answers later than the timeout the fetcher assembles the exact bytes",
    "[unit]") {
  const std::string bytes = Blob(40 * 1000 + 321, 'k');
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    INFO("seed " << seed);
    FetcherNet lab({}, seed, transport::Millis(300));
    const size_t holder = 1 + seed % 8;
    lab.sources[holder]->blobs[DigestOf(bytes)] = bytes;
    lab.net.SetLoss(0.10);
    std::optional<FetchOutcome> got;
    lab.fetcher->FetchFrom(lab.net.now(), DigestOf(bytes), bytes.size(), lab.Contact(holder),
                           [&got](const FetchOutcome& o) { got = o; });
    lab.RunFor(transport::Seconds(60));
    REQUIRE(got.has_value());
    INFO(got->error);
    CHECK(got->status == FetchOutcome::Status::kOk);
    CHECK(got->attempts.empty());
    if (got->bytes) CHECK(*got->bytes == bytes);
  }
}

}  // namespace
}  // namespace skillnode::kademlia::blobs
