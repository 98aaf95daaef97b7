// BlobService in seeded many-node runs: holders announced and found, blobs moved in chunks and
// verified, corrupt, short and absent holders bypassed, loss, shared and refused fetches.
#include "kademlia/blobs/blob_service.h"

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/wire/encoding.h"
#include "support/fake_network.h"

namespace skillnode::kademlia::blobs {
namespace {

using testing::FakeNetwork;

wire::BlobDigest DigestOf(const std::string& bytes) {
  wire::BlobDigest out{};
  wire::Sha256Into(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), out);
  return out;
}

// Text of `size` bytes that differs from position to position.
std::string Blob(size_t size, char seed = 'a') {
  std::string out(size, ' ');
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<char>(seed + (i * 7 + i / 13) % 26);
  return out;
}

// A node's blobs, held in memory; `lie` makes it misbehave the way a bad holder would.
class MemorySource : public HeldBlobs {
 public:
  enum class Lie { kNone, kFlipByte, kLonger, kTruncatedFile };
  std::map<wire::BlobDigest, std::string> blobs;
  Lie lie = Lie::kNone;

  std::optional<uint64_t> SizeOf(const wire::BlobDigest& digest) override {
    auto found = blobs.find(digest);
    if (found == blobs.end()) return std::nullopt;
    if (lie == Lie::kTruncatedFile) return found->second.size() - 1;
    return found->second.size() + (lie == Lie::kLonger ? 1 : 0);
  }
  std::vector<uint8_t> Read(const wire::BlobDigest& digest, uint64_t offset,
                            size_t length) override {
    const std::string& held = blobs.at(digest);
    std::string_view bytes = held;
    std::string longer;
    if (lie == Lie::kLonger) bytes = longer = held + "\n";  // one byte more than the record
    if (lie == Lie::kTruncatedFile) bytes.remove_suffix(1);
    const std::string_view range = bytes.substr(offset, length);
    std::vector<uint8_t> out(range.begin(), range.end());
    if (lie == Lie::kFlipByte && offset <= held.size() / 2 && held.size() / 2 < offset + length) {
      out[held.size() / 2 - offset] ^= 0x20;
    }
    return out;
  }
  bool Keep(const wire::BlobDigest& digest, const std::string& bytes) override {
    blobs[digest] = bytes;
    return true;
  }
};

struct BlobNet {
  FakeNetwork net{/*seed=*/77};
  std::vector<std::unique_ptr<MemorySource>> sources;
  std::vector<std::unique_ptr<BlobService>> services;

  explicit BlobNet(size_t count, BlobConfig config = {}) {
    KademliaConfig kad;
    kad.routing.bucket_size = 8;
    for (size_t i = 0; i < count; ++i) {
      Node& node = net.AddNode(kad);
      sources.push_back(std::make_unique<MemorySource>());
      services.push_back(std::make_unique<BlobService>(node, *sources.back(), config, net.rng()));
      if (i > 0) {
        const transport::Endpoint seed = net.endpoint(0);
        node.Join(net.now(), std::span(&seed, 1), nullptr);
      }
      if (i % 10 == 9) net.RunFor(transport::Seconds(1));
    }
    net.RunFor(transport::Seconds(30));
  }

  // Node `i` holds `bytes` and announces them.
  void Hold(size_t i, const std::string& bytes) {
    sources[i]->blobs[DigestOf(bytes)] = bytes;
    services[i]->Announce(net.now(), DigestOf(bytes), BlobService::Holding::kOwn);
  }

  FetchOutcome Fetch(size_t i, const std::string& bytes, std::optional<size_t> publisher,
                     transport::Duration run = transport::Seconds(90)) {
    std::optional<FetchOutcome> outcome;
    std::optional<NodeId> publisher_id;
    if (publisher) publisher_id = net.node(*publisher).id();
    services[i]->Fetch(net.now(), DigestOf(bytes), bytes.size(), publisher_id,
                       [&outcome](const FetchOutcome& o) { outcome = o; });
    net.RunFor(run);
    REQUIRE(outcome.has_value());
    return *outcome;
  }
};

TEST_CASE("a blob announced by its publisher is fetched by another node, byte for byte", "[unit]") {
  BlobNet lab(24);
  const std::string skill_md = Blob(300 * 1024);
  lab.Hold(3, skill_md);
  lab.net.RunFor(transport::Seconds(5));
  const FetchOutcome got = lab.Fetch(17, skill_md, 3);
  INFO(got.error);
  REQUIRE(got.status == FetchOutcome::Status::kOk);
  CHECK(*got.bytes == skill_md);
  CHECK(got.holder == lab.net.node(3).id());
  CHECK(got.attempts.empty());
  CHECK(lab.services[17]->stats().chunks_fetched == (skill_md.size() + 999) / 1000);
  CHECK(lab.services[3]->stats().chunks_served == (skill_md.size() + 999) / 1000);
  // Some node close to the blob's key lists the publisher as a holder.
  size_t listing = 0;
  for (const auto& service : lab.services) listing += service->directory().entries();
  CHECK(listing >= 1);
}

TEST_CASE("the publisher's node is found by its id even when it announced nothing", "[unit]") {
  BlobNet lab(16);
  const std::string bytes = Blob(5000, 'k');
  lab.sources[5]->blobs[DigestOf(bytes)] = bytes;  // held, never announced
  const FetchOutcome got = lab.Fetch(11, bytes, 5);
  REQUIRE(got.status == FetchOutcome::Status::kOk);
  CHECK(got.holder == lab.net.node(5).id());
}

TEST_CASE("a holder serving corrupt bytes is detected, bypassed and not asked again", "[unit]") {
  BlobNet lab(24);
  const std::string archive = Blob(64 * 1024, 'c');
  lab.Hold(3, archive);  // the publisher
  lab.Hold(9, archive);  // a copy that rotted
  lab.sources[9]->lie = MemorySource::Lie::kFlipByte;
  lab.net.RunFor(transport::Seconds(5));
  const FetchOutcome got = lab.Fetch(17, archive, 3);
  INFO(got.error);
  REQUIRE(got.status == FetchOutcome::Status::kOk);
  CHECK(*got.bytes == archive);
  CHECK(got.holder == lab.net.node(3).id());
  REQUIRE(got.attempts.size() == 1);  // copies are tried before the publisher
  CHECK(got.attempts[0].id == lab.net.node(9).id());
  CHECK(got.attempts[0].failure == HolderFailure::kCorrupt);
  CHECK(got.attempts[0].detail.find("hash to") != std::string::npos);
  CHECK(lab.services[17]->stats().holder_failures[0] == 1);
  // The same fetcher skips the corrupt holder next time.
  const FetchOutcome again = lab.Fetch(17, archive, 3);
  REQUIRE(again.status == FetchOutcome::Status::kOk);
  CHECK(again.attempts.empty());
  CHECK(lab.services[17]->stats().holder_failures[0] == 1);
}

TEST_CASE("a holder with a truncated or longer copy is bypassed as truncated", "[unit]") {
  for (auto lie : {MemorySource::Lie::kLonger, MemorySource::Lie::kTruncatedFile}) {
    BlobNet lab(16);
    const std::string bytes = Blob(20 * 1000 + 17, 'e');
    lab.Hold(2, bytes);
    lab.Hold(6, bytes);
    lab.sources[6]->lie = lie;
    lab.net.RunFor(transport::Seconds(5));
    const FetchOutcome got = lab.Fetch(12, bytes, 2);
    REQUIRE(got.status == FetchOutcome::Status::kOk);
    CHECK(*got.bytes == bytes);
    REQUIRE(got.attempts.size() == 1);
    CHECK(got.attempts[0].failure == HolderFailure::kTruncated);
  }
}

TEST_CASE("a listed holder that lost the bytes answers not held, and one that is gone times out",
          "[unit]") {
  BlobNet lab(16);
  const std::string bytes = Blob(8000, 'g');
  lab.Hold(2, bytes);
  lab.Hold(6, bytes);
  lab.net.RunFor(transport::Seconds(5));
  lab.sources[6]->blobs.clear();
  FetchOutcome got = lab.Fetch(12, bytes, 2);
  REQUIRE(got.status == FetchOutcome::Status::kOk);
  REQUIRE(got.attempts.size() == 1);
  CHECK(got.attempts[0].failure == HolderFailure::kNotHeld);

  // Only a silent publisher is left (the copy lost its bytes): the fetch fails, saying why.
  lab.net.SetSilent(2, true);
  got = lab.Fetch(13, bytes, 2);
  INFO(got.error);
  CHECK(got.status == FetchOutcome::Status::kFailed);
  CHECK(got.error.find("holder " + lab.net.node(2).id().ShortHex()) != std::string::npos);
  CHECK(got.error.find(": timeout (chunk ") != std::string::npos);
  REQUIRE_FALSE(got.attempts.empty());
  CHECK(got.attempts.back().failure == HolderFailure::kTimeout);
}

TEST_CASE("with 10 % of datagrams lost a 300 KiB blob still arrives intact", "[unit]") {
  BlobNet lab(24);
  const std::string skill_md = Blob(300 * 1024, 'm');
  lab.Hold(4, skill_md);
  lab.net.RunFor(transport::Seconds(5));
  lab.net.SetLoss(0.10);
  const FetchOutcome got = lab.Fetch(20, skill_md, 4);
  INFO(got.error);
  REQUIRE(got.status == FetchOutcome::Status::kOk);
  CHECK(*got.bytes == skill_md);
  CHECK(lab.services[20]->stats().chunk_retries > 0);
  CHECK(lab.net.lost() > 0);
}

TEST_CASE("an archive at the 8 MiB folder limit arrives through 10 % loss within the timeout",
          "[unit]") {
  BlobNet lab(12);
  const std::string archive = Blob(8 * 1024 * 1024, 'r');
  lab.Hold(2, archive);
  lab.net.RunFor(transport::Seconds(5));
  lab.net.SetLoss(0.10);
  const transport::TimePoint start = lab.net.now();
  std::optional<FetchOutcome> got;
  std::optional<transport::TimePoint> finished;
  lab.services[9]->Fetch(lab.net.now(), DigestOf(archive), archive.size(), lab.net.node(2).id(),
                         [&](const FetchOutcome& o) {
                           got = o;
                           finished = lab.net.now();
                         });
  lab.net.RunFor(transport::Seconds(60));
  REQUIRE(got.has_value());
  INFO(got->error);
  REQUIRE(got->status == FetchOutcome::Status::kOk);
  CHECK(*got->bytes == archive);
  // 8,389 chunks at 4,000 a second (the holder's rate) and 10 ms each way: the default 25 s
  // fetch timeout leaves room.
  CHECK(*finished - start < transport::Seconds(15));
}

TEST_CASE("nobody holding a digest is a no-holder outcome with a reason", "[unit]") {
  BlobNet lab(12);
  const FetchOutcome got = lab.Fetch(3, Blob(100), std::nullopt);
  CHECK(got.status == FetchOutcome::Status::kNoHolder);
  CHECK(got.error.find("no node was found holding") != std::string::npos);
  CHECK(lab.services[3]->stats().fetches_no_holder == 1);
}

TEST_CASE("fetches of one digest share a transfer; too many or too large are refused", "[unit]") {
  BlobConfig config;
  config.fetches_max = 1;
  config.fetch_bytes_max = 50 * 1000;
  BlobNet lab(12, config);
  const std::string bytes = Blob(30 * 1000, 'q');
  lab.Hold(1, bytes);
  lab.net.RunFor(transport::Seconds(5));
  std::vector<FetchOutcome> outcomes;
  auto keep = [&outcomes](const FetchOutcome& o) { outcomes.push_back(o); };
  BlobService& fetcher = *lab.services[8];
  const NodeId publisher = lab.net.node(1).id();
  fetcher.Fetch(lab.net.now(), DigestOf(bytes), bytes.size(), publisher, keep);
  fetcher.Fetch(lab.net.now(), DigestOf(bytes), bytes.size(), publisher, keep);
  fetcher.Fetch(lab.net.now(), DigestOf(Blob(10)), 10, publisher, keep);        // a second one
  fetcher.Fetch(lab.net.now(), DigestOf(Blob(60000)), 60000, publisher, keep);  // too large
  REQUIRE(outcomes.size() == 2);                                                // refused at once
  CHECK(outcomes[0].status == FetchOutcome::Status::kBusy);
  CHECK(outcomes[1].status == FetchOutcome::Status::kTooLarge);
  lab.net.RunFor(transport::Seconds(30));
  REQUIRE(outcomes.size() == 4);
  CHECK(outcomes[2].status == FetchOutcome::Status::kOk);
  CHECK(outcomes[3].status == FetchOutcome::Status::kOk);
  CHECK(outcomes[2].bytes == outcomes[3].bytes);  // one transfer, one buffer
  CHECK(fetcher.stats().chunks_fetched == 30);
}

TEST_CASE("a directory lists at most its limit of holders per blob and renews by id", "[unit]") {
  HolderDirectory directory(HolderLimits{2, 3});
  const transport::TimePoint t0 = transport::kTimeZero + transport::Seconds(10);
  const Key a = BlobKey(DigestOf("a"));
  const Key b = BlobKey(DigestOf("b"));
  auto holder = [](int i) {
    return wire::WireContact{Key::Sha256(std::to_string(i)),
                             *transport::Endpoint::Parse("10.0.0." + std::to_string(i) + ":6881")};
  };
  CHECK(directory.Announce(t0, a, holder(1), transport::Seconds(60)) ==
        HolderDirectory::Outcome::kAdded);
  CHECK(directory.Announce(t0, a, holder(2), transport::Seconds(60)) ==
        HolderDirectory::Outcome::kAdded);
  CHECK(directory.Announce(t0, a, holder(3), transport::Seconds(60)) ==
        HolderDirectory::Outcome::kKeyFull);
  CHECK(directory.Announce(t0, a, holder(1), transport::Seconds(60)) ==
        HolderDirectory::Outcome::kRenewed);
  CHECK(directory.Announce(t0, b, holder(4), transport::Seconds(10)) ==
        HolderDirectory::Outcome::kAdded);
  CHECK(directory.Announce(t0, b, holder(5), transport::Seconds(60)) ==
        HolderDirectory::Outcome::kFull);
  CHECK(directory.Holders(t0, a).size() == 2);
  CHECK(directory.Holders(t0, a)[0].id == holder(1).id);  // most recently announced first
  CHECK(directory.Holders(t0 + transport::Seconds(30), b).empty());  // expired
  CHECK(directory.Announce(t0 + transport::Seconds(30), b, holder(5), transport::Seconds(60)) ==
        HolderDirectory::Outcome::kAdded);
  CHECK(directory.Expire(t0 + transport::Seconds(61)) == 2);
  CHECK(directory.entries() == 1);
  CHECK(BlobKey(DigestOf("a")) != Key(DigestOf("a")));
}

}  // namespace
}  // namespace skillnode::kademlia::blobs
