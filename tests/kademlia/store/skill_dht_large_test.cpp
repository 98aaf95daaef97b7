// Records larger than a datagram in seeded many-node runs (docs/protocol.md "Records larger than
// a datagram"): published by one node and found whole by every other, pushed to a listener,
// handed to the node that replaces an evicted holder, read-repaired; and the references a STORE
// may carry that fail: a sender that never serves the bytes, bytes that hash wrong, a signature
// that does not verify over them, and pulls past the bound.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kademlia/blobs/blob_service.h"
#include "kademlia/store/skill_dht.h"
#include "kademlia/wire/encoding.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;
using testing::Holders;
using testing::LargeRecord;
using testing::Publisher;
using testing::Signed;

const Key kKey = CapabilityKey("user-auth");

// Every live host's get of `key`: how many found `expected` (exactly) under its agent id.
size_t FoundEverywhere(FakeNetwork& net, const Key& key, const SignedRecord& expected) {
  const std::vector<std::optional<GetResult>> results = testing::GetFromEveryLiveNode(net, key);
  size_t found = 0;
  for (size_t i = 0; i < net.size(); ++i) {
    if (net.silent(i)) continue;
    REQUIRE(results[i].has_value());
    CHECK(results[i]->unavailable == 0);
    for (const SignedRecordPtr& r : results[i]->records) found += *r == expected;
  }
  return found;
}

uint64_t Sum(FakeNetwork& net, uint64_t DhtStats::*counter) {
  uint64_t sum = 0;
  for (size_t i = 0; i < net.size(); ++i) sum += net.dht(i).stats().*counter;
  return sum;
}

TEST_CASE("a record larger than a datagram is found whole by every node", "[sim]") {
  FakeNetwork net(/*seed=*/61);
  BuildDhtNetwork(net, 40, DhtConfig{});
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  REQUIRE(large.encoded.size() > kRecordInlineSizeMax);
  std::optional<PublishResult> published;
  net.dht(5).Publish(net.now(), large, [&](const PublishResult& r) { published = r; });
  net.RunFor(transport::Seconds(30));
  REQUIRE(published.has_value());
  CHECK(published->stored >= 3);
  CHECK(Holders(net, kKey).size() >= 3);
  CHECK(FoundEverywhere(net, kKey, large) == net.size());
  CHECK(net.dht(5).stats().references_sent > 0);
  CHECK(Sum(net, &DhtStats::records_pulled) > 0);
  CHECK(Sum(net, &DhtStats::record_pulls_failed) == 0);
  CHECK(Sum(net, &DhtStats::records_pulled_invalid) == 0);
  for (size_t i = 0; i < net.size(); ++i) CHECK(net.dht(i).record_pulls_running() == 0);
  // A republish finds the copies at hand: nothing is pulled again.
  const uint64_t pulled = Sum(net, &DhtStats::records_pulled);
  net.dht(5).Publish(net.now(), large, nullptr);
  net.RunFor(transport::Seconds(30));
  CHECK(Sum(net, &DhtStats::records_pulled) == pulled);
  CHECK(Sum(net, &DhtStats::references_resolved_here) > 0);
}

TEST_CASE("a listener is pushed a large record and pulls it from the holder", "[sim]") {
  FakeNetwork net(/*seed=*/62);
  BuildDhtNetwork(net, 40, DhtConfig{});
  std::vector<ListenEvent> events;
  REQUIRE(net.dht(30).Listen(net.now(), kKey,
                             [&events](const ListenEvent& e) { events.push_back(e); }) != 0);
  net.RunFor(transport::Seconds(10));
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  net.dht(7).Publish(net.now(), large, nullptr);
  net.RunFor(transport::Seconds(10));
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ListenEvent::Kind::kAdded);
  CHECK(events[0].record == large);
  CHECK(events[0].record.record.descriptor->description == large.record.descriptor->description);
}

TEST_CASE("an evicted holder's copy of a large record is handed to the node in its place",
          "[sim]") {
  FakeNetwork net(/*seed=*/63);
  BuildDhtNetwork(net, 40, DhtConfig{});
  net.dht(0).Publish(net.now(), Signed(LargeRecord(), Publisher()), nullptr);
  net.RunFor(transport::Seconds(30));
  const std::vector<size_t> before = Holders(net, kKey);
  REQUIRE(before.size() >= 3);
  const size_t gone = before.back() == 0 ? before.front() : before.back();
  net.SetSilent(gone, true);
  testing::EvictFromHolders(net, before, gone);
  net.RunFor(transport::Seconds(10));
  CHECK(Sum(net, &DhtStats::repair_keys) >= 1);
  CHECK(Holders(net, kKey).size() == before.size());
}

TEST_CASE("a get gives a large record to a close node that lacks it", "[sim]") {
  FakeNetwork net(/*seed=*/64);
  BuildDhtNetwork(net, 40, DhtConfig{});
  const auto published =
      testing::PublishWithoutClosest(net, kKey, Signed(LargeRecord(), Publisher()));
  const size_t closest = published.closest;
  net.RunFor(transport::Seconds(60));
  const size_t asker = testing::FirstNonHolder(published);
  const std::optional<GetResult> result = testing::GetOnce(net, asker, kKey);
  REQUIRE(result.has_value());
  REQUIRE(result->records.size() == 1);
  CHECK(net.dht(asker).stats().read_repairs >= 1);
  // The close node pulled it from the asker, which held no copy of its own.
  REQUIRE(net.dht(closest).store().Get(kKey).size() == 1);
  CHECK(net.dht(closest).stats().records_pulled >= 1);
}

// A reference to `record` as its sender would make it, with `signature` (the record's own
// unless given) and the digest of `bytes_named` (the record's encoding unless given).
wire::WireRecord ReferenceTo(const SignedRecord& record,
                             std::optional<Signature> signature = std::nullopt,
                             std::optional<std::string> bytes_named = std::nullopt) {
  wire::RecordReference reference;
  if (bytes_named) {
    wire::Sha256Into(
        std::span(reinterpret_cast<const uint8_t*>(bytes_named->data()), bytes_named->size()),
        reference.digest);
  } else {
    wire::Sha256Into(record.encoded, reference.digest);
  }
  reference.size = static_cast<uint32_t>(record.encoded.size());
  return wire::WireRecord::Referring(reference, signature.value_or(record.signature));
}

// A node's blobs served by a BlobService, as a node that runs one would.
class MemorySource : public blobs::HeldBlobs {
 public:
  std::map<wire::BlobDigest, std::vector<uint8_t>> blobs;
  std::optional<uint64_t> SizeOf(const wire::BlobDigest& digest) override {
    auto found = blobs.find(digest);
    if (found == blobs.end()) return std::nullopt;
    return found->second.size();
  }
  std::vector<uint8_t> Read(const wire::BlobDigest& digest, uint64_t offset,
                            size_t length) override {
    const std::vector<uint8_t>& bytes = blobs.at(digest);
    const size_t from = static_cast<size_t>(std::min<uint64_t>(offset, bytes.size()));
    const size_t to = std::min(bytes.size(), from + length);
    return std::vector<uint8_t>(bytes.begin() + static_cast<long>(from),
                                bytes.begin() + static_cast<long>(to));
  }
  bool Keep(const wire::BlobDigest& digest, const std::string& bytes) override {
    blobs[digest].assign(bytes.begin(), bytes.end());
    return true;
  }
};

// Node 1 sends STOREs to node 2 (after a FIND_NODE for the token); with `then_silent` it goes
// silent at once, so node 2's answers and its chunk requests never reach it.
void SendStores(FakeNetwork& net, const std::vector<wire::WireRecord>& records, bool then_silent) {
  std::vector<uint8_t> token;
  net.node(1).Request(net.now(), net.endpoint(2), net.node(2).id(), wire::FindNodeBody{kKey},
                      [&token](const rpc::RpcResult& result) {
                        REQUIRE(result.reply != nullptr);
                        token = std::get<wire::NodesBody>(result.reply->body).token;
                      });
  net.RunFor(transport::Millis(100));
  REQUIRE_FALSE(token.empty());
  for (const wire::WireRecord& record : records) {
    net.node(1).Request(net.now(), net.endpoint(2), net.node(2).id(),
                        wire::StoreBody{kKey, token, record, 600}, nullptr);
  }
  net.SetSilent(1, then_silent);
}

TEST_CASE("a STORE whose sender never serves the bytes stores nothing and frees its pull",
          "[sim]") {
  FakeNetwork net(/*seed=*/65);
  BuildDhtNetwork(net, 10, DhtConfig{});
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  SendStores(net, {ReferenceTo(large)}, /*then_silent=*/true);
  net.RunFor(transport::Millis(100));
  SkillDht& holder = net.dht(2);
  CHECK(holder.record_pulls_running() == 1);
  CHECK(holder.stats().record_pulls_started == 1);
  net.RunFor(transport::Seconds(20));  // past record_pull_timeout
  CHECK(holder.record_pulls_running() == 0);
  CHECK(holder.stats().record_pulls_failed == 1);
  CHECK(holder.stats().records_pulled == 0);
  CHECK(holder.store().Get(kKey).empty());
  CHECK(holder.NextDeadline() > net.now() + transport::Seconds(1));  // no pull timer left
}

TEST_CASE("a STORE of a reference its sender does not hold fails its pull at once", "[sim]") {
  FakeNetwork net(/*seed=*/66);
  BuildDhtNetwork(net, 10, DhtConfig{});
  SendStores(net, {ReferenceTo(Signed(LargeRecord(), Publisher()))}, /*then_silent=*/false);
  net.RunFor(transport::Seconds(2));
  CHECK(net.dht(2).stats().record_pulls_failed == 1);
  CHECK(net.dht(2).store().Get(kKey).empty());
}

TEST_CASE("a reference whose bytes hash wrong is refused and nothing is stored", "[sim]") {
  FakeNetwork net(/*seed=*/67);
  BuildDhtNetwork(net, 10, DhtConfig{});
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  // Node 1 serves the record's bytes under the digest of other bytes.
  MemorySource source;
  const wire::WireRecord lie = ReferenceTo(large, std::nullopt, std::string("other bytes"));
  source.blobs[lie.reference->digest] = large.encoded;
  blobs::BlobService service(net.node(1), source, blobs::BlobConfig{}, net.rng());
  SendStores(net, {lie}, /*then_silent=*/false);
  net.RunFor(transport::Seconds(2));
  SkillDht& holder = net.dht(2);
  CHECK(holder.stats().record_pulls_failed == 1);
  CHECK(holder.stats().records_pulled == 0);
  CHECK(holder.store().Get(kKey).empty());
  CHECK(holder.stats().stores_accepted == 0);
  service.Shutdown();
}

TEST_CASE("pulled bytes under a signature that does not verify are a refused STORE", "[sim]") {
  FakeNetwork net(/*seed=*/68);
  BuildDhtNetwork(net, 10, DhtConfig{});
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  MemorySource source;
  source.blobs[ReferenceTo(large).reference->digest] = large.encoded;
  blobs::BlobService service(net.node(1), source, blobs::BlobConfig{}, net.rng());
  SendStores(net, {ReferenceTo(large, Publisher("mallory").Sign(large.encoded))},
             /*then_silent=*/false);
  net.RunFor(transport::Seconds(2));
  SkillDht& holder = net.dht(2);
  CHECK(holder.stats().records_pulled == 1);
  CHECK(holder.stats().records_pulled_invalid == 1);
  CHECK(holder.stats().store_refused[static_cast<size_t>(wire::ErrorReplyCode::kBadSignature)] ==
        1);
  CHECK(holder.store().Get(kKey).empty());
  service.Shutdown();
}

TEST_CASE("a STORE of a reference past the pull bound is refused with kPullsFull", "[sim]") {
  FakeNetwork net(/*seed=*/69);
  DhtConfig config;
  config.record_pulls_max = 1;
  BuildDhtNetwork(net, 10, config);
  SendStores(net,
             {ReferenceTo(Signed(LargeRecord("a"), Publisher())),
              ReferenceTo(Signed(LargeRecord("b"), Publisher()))},
             /*then_silent=*/true);
  net.RunFor(transport::Millis(100));
  SkillDht& holder = net.dht(2);
  CHECK(holder.record_pulls_running() == 1);
  CHECK(holder.stats().record_pulls_refused == 1);
  CHECK(holder.stats().store_refused[static_cast<size_t>(wire::ErrorReplyCode::kPullsFull)] == 1);
  net.RunFor(transport::Seconds(20));
  CHECK(holder.record_pulls_running() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia::store
