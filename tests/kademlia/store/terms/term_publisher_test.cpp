// TermPublisher (kademlia/store/terms/term_publisher.h) through SkillDht::Publish in seeded
// networks: a record's pointers land on the r closest of each term key, a full shard 0 sends
// them to shard 1 unless they outweigh its lightest (which goes on to shard 1), a tombstone and an
// update that drops a term bury them, a pointer signed again carries its record's new sequence, and
// a record of another key gets none.
#include "kademlia/store/terms/term_publisher.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::kademlia::store::terms {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;

constexpr size_t kPublisher = 3;

// A record with a descriptor signed by host `host`'s own identity, at the network's wall clock.
SignedRecord Own(FakeNetwork& net, size_t host, uint64_t sequence = 1, bool tombstone = false) {
  SkillRecord r = testing::FullRecord();
  r.timestamp_ms = SimulatedWallClockMs(net.now());
  r.sequence = sequence;
  r.tombstone = tombstone;
  if (tombstone) {
    r.descriptor.reset();
    r.reason = UnregisterReason::kShutdown;
  }
  return testing::Signed(r, net.node(host).identity());
}

// The pointer of `identity` each host holds under `key`, by host (hosts holding none left out).
std::vector<std::pair<size_t, SignedTermPointer>> PointersAt(FakeNetwork& net, const Key& key,
                                                             const RecordIdentity& identity) {
  std::vector<std::pair<size_t, SignedTermPointer>> held;
  for (size_t i = 0; i < net.size(); ++i) {
    for (const StoredPointer* p : net.dht(i).terms().Page(key, 0, 1024)) {
      if (IdentityOf(p->Signed().pointer) == identity) held.emplace_back(i, p->Signed());
    }
  }
  return held;
}

std::set<size_t> HostsOf(const std::vector<std::pair<size_t, SignedTermPointer>>& held) {
  std::set<size_t> hosts;
  for (const auto& [host, pointer] : held) hosts.insert(host);
  return hosts;
}

// The `r` hosts whose ids are closest to `key`.
std::set<size_t> Closest(FakeNetwork& net, const Key& key, size_t r) {
  std::vector<size_t> hosts(net.size());
  for (size_t i = 0; i < hosts.size(); ++i) hosts[i] = i;
  std::sort(hosts.begin(), hosts.end(),
            [&](size_t a, size_t b) { return CloserTo(key, net.node(a).id(), net.node(b).id()); });
  return std::set<size_t>(hosts.begin(), hosts.begin() + static_cast<ptrdiff_t>(r));
}

size_t PointersHeld(FakeNetwork& net) {
  size_t held = 0;
  for (size_t i = 0; i < net.size(); ++i) held += net.dht(i).terms().pointers();
  return held;
}

const std::vector<IndexTerm> kTerms = {{"feishu", 600}, {"organ", 250}, {"chart", 100}};

TEST_CASE("a record's pointers land on the r closest nodes of each of its term keys", "[sim]") {
  FakeNetwork net(/*seed=*/71);
  BuildDhtNetwork(net, 30, DhtConfig{});
  const SignedRecord record = Own(net, kPublisher);
  net.dht(kPublisher).Publish(net.now(), record, nullptr, kTerms);
  net.RunFor(transport::Seconds(30));
  const RecordIdentity identity = IdentityOf(record.record);
  for (const IndexTerm& term : kTerms) {
    const auto held = PointersAt(net, TermKey(term.term), identity);
    CHECK(HostsOf(held) == Closest(net, TermKey(term.term), 3));
    for (const auto& [host, pointer] : held) {
      CHECK(pointer.pointer.term == term.term);
      CHECK(pointer.pointer.weight_centi == term.weight_centi);
      CHECK(pointer.pointer.record_key == SkillKey(record.record.skill_id));
      CHECK(pointer.pointer.name == "Feishu Organization Service");
      CHECK(pointer.pointer.description == record.record.descriptor->description);
      CHECK(pointer.pointer.sequence == record.record.sequence);
      CHECK(pointer.pointer.publisher == net.node(kPublisher).identity().public_key());
      // Every pointer names all three terms of its record, with their weights.
      REQUIRE(pointer.pointer.terms.size() == kTerms.size());
      for (const IndexTerm& other : kTerms) {
        CHECK(pointer.pointer.terms.WeightCenti(TermProfile::HashOf(other.term)) ==
              other.weight_centi);
      }
    }
  }
  CHECK(net.dht(kPublisher).stats().term_pointers_published == kTerms.size());
  CHECK(net.dht(kPublisher).stats().term_shard_moves == 0);
}

TEST_CASE("a record signed by another key publishes no pointers", "[sim]") {
  FakeNetwork net(/*seed=*/72);
  BuildDhtNetwork(net, 20, DhtConfig{});
  SkillRecord r = testing::FullRecord();
  r.timestamp_ms = SimulatedWallClockMs(net.now());
  net.dht(kPublisher).Publish(net.now(), testing::Signed(r, testing::Publisher()), nullptr, kTerms);
  net.RunFor(transport::Seconds(30));
  CHECK(PointersHeld(net) == 0);
  CHECK(net.dht(kPublisher).stats().term_pointers_published == 0);
  CHECK_FALSE(testing::Holders(net, SkillKey(r.skill_id)).empty());  // the record went out
}

TEST_CASE("pointer jobs start at the publisher's pace, a burst first and then one per token",
          "[sim]") {
  FakeNetwork net(/*seed=*/73);
  DhtConfig config;
  config.term_jobs_per_second = 2;
  config.term_jobs_burst = 2;
  BuildDhtNetwork(net, 20, config);
  const std::vector<IndexTerm> six = {{"feishu", 600},  {"organ", 500},  {"chart", 400},
                                      {"meeting", 300}, {"invite", 200}, {"agenda", 100}};
  const SignedRecord record = Own(net, kPublisher);
  net.dht(kPublisher).Publish(net.now(), record, nullptr, six);
  const TermPublisher& pace = net.dht(kPublisher).term_publisher();
  // The burst: two jobs start at once, four wait; the next may start half a second later.
  CHECK(pace.jobs_queued() == 4);
  CHECK(pace.NextDeadline() == net.now() + transport::Millis(500));
  net.RunFor(transport::Millis(400));
  CHECK(pace.jobs_queued() == 4);
  net.RunFor(transport::Millis(200));
  CHECK(pace.jobs_queued() == 3);
  net.RunFor(transport::Millis(1500));
  CHECK(pace.jobs_queued() == 0);
  CHECK(pace.NextDeadline() == transport::kTimeNever);
  net.RunFor(transport::Seconds(30));
  // Paced, not dropped: every term has its pointer.
  for (const IndexTerm& term : six) {
    CHECK(pace.ShardOf(IdentityOf(record.record), term.term) == 0u);
  }
  CHECK(net.dht(kPublisher).stats().term_jobs_dropped == 0);
}

// Host `filler` fills `key` on `hosts` with kTermPointersPerKeyMax pointers of `weight` (by
// default heavier than any of kTerms), STOREd as any node would.
void Fill(FakeNetwork& net, size_t filler, const Key& key, const std::set<size_t>& hosts,
          uint32_t weight = 5000) {
  const Identity other = testing::Publisher("filler");
  for (size_t host : hosts) {
    std::vector<uint8_t> token;
    net.node(filler).Request(net.now(), net.endpoint(host), net.node(host).id(),
                             wire::FindNodeBody{key}, [&](const rpc::RpcResult& result) {
                               REQUIRE(result.reply != nullptr);
                               token = std::get<wire::NodesBody>(result.reply->body).token;
                             });
    net.RunFor(transport::Seconds(1));
    REQUIRE_FALSE(token.empty());
    for (size_t i = 0; i < kTermPointersPerKeyMax; ++i) {
      TermPointer p;
      p.term = "feishu";
      p.skill_id = "filler-" + std::to_string(i);
      p.agent_id = "agent-filler";
      p.record_key = SkillKey(p.skill_id);
      p.weight_centi = weight;
      p.timestamp_ms = SimulatedWallClockMs(net.now());
      p.sequence = 1;
      p.ttl_seconds = 3600;
      const SignedTermPointer s = *SignTermPointer(p, other);
      net.node(filler).Request(net.now(), net.endpoint(host), net.node(host).id(),
                               wire::StoreBody{key, token, {s.encoded, s.signature}, 3600},
                               nullptr);
    }
    net.RunFor(transport::Seconds(2));
    REQUIRE(net.dht(host).terms().Count(key) == kTermPointersPerKeyMax);
  }
}

// A network of 30 where shard 0 of "feishu" is full on its 10 closest hosts, with pointers of
// `weight`, STOREd by a host that is not among them; the publisher is none of those either.
struct FullShardZero {
  explicit FullShardZero(uint32_t weight) : net(/*seed=*/73) {
    BuildDhtNetwork(net, 30, DhtConfig{});
    // The publisher and the filler are neither among the 8 closest of shard 0 (which answer).
    const std::set<size_t> shard0 = Closest(net, TermKey("feishu", 0), 10);
    while (shard0.contains(publisher)) ++publisher;
    size_t filler = publisher + 1;
    while (shard0.contains(filler)) ++filler;
    Fill(net, filler, TermKey("feishu", 0), shard0, weight);
  }

  FakeNetwork net;
  size_t publisher = 0;
};

TEST_CASE("when shard 0 of a term is full of heavier pointers, the pointer goes to shard 1",
          "[sim]") {
  FullShardZero world(/*weight=*/5000);
  FakeNetwork& net = world.net;
  const SignedRecord record = Own(net, world.publisher);
  net.dht(world.publisher).Publish(net.now(), record, nullptr, {kTerms[0]});
  net.RunFor(transport::Seconds(30));
  const RecordIdentity identity = IdentityOf(record.record);
  CHECK(PointersAt(net, TermKey("feishu", 0), identity).empty());
  CHECK(HostsOf(PointersAt(net, TermKey("feishu", 1), identity)) ==
        Closest(net, TermKey("feishu", 1), 3));
  CHECK(net.dht(world.publisher).stats().term_pointers_published == 1);
}

TEST_CASE(
    "a pointer heavier than the lightest of a full shard 0 goes to shard 0, however late, and "
    "the pointer it displaces goes on to shard 1",
    "[sim]") {
  // Full of pointers lighter than kTerms[0] (600): its holders say so ("lw" 100), and the
  // pointer takes the place of one of them there, never reaching shard 1.
  FullShardZero world(/*weight=*/100);
  FakeNetwork& net = world.net;
  const Key shard0 = TermKey("feishu", 0);
  const SignedRecord record = Own(net, world.publisher);
  net.dht(world.publisher).Publish(net.now(), record, nullptr, {kTerms[0]});
  net.RunFor(transport::Seconds(30));
  const RecordIdentity identity = IdentityOf(record.record);
  const std::set<size_t> holders = Closest(net, shard0, 3);
  CHECK(HostsOf(PointersAt(net, shard0, identity)) == holders);
  CHECK(PointersAt(net, TermKey("feishu", 1), identity).empty());
  for (size_t host : holders) {
    CHECK(net.dht(host).terms().Count(shard0) == kTermPointersPerKeyMax);
    CHECK(net.dht(host).terms().Page(shard0, 0, 1).front()->weight_centi == 600);
    CHECK(net.dht(host).terms().displaced() == 1);
  }
  CHECK(net.dht(world.publisher).term_publisher().ShardOf(identity, "feishu") == 0u);
  CHECK(net.dht(world.publisher).stats().term_pointers_published == 1);
  // The filler pointer it displaced (the same on every holder: the lowest identity of the
  // lightest weight) went on to shard 1 at once, handed on by the closest holder alone.
  const Key shard1 = TermKey("feishu", 1);
  uint64_t handed_on = 0, placed = 0;
  for (size_t host = 0; host < net.size(); ++host) {
    handed_on += net.dht(host).stats().term_pointers_handed_on;
    placed += net.dht(host).stats().term_hand_ons_placed;
  }
  CHECK(handed_on == 1);
  CHECK(placed == 1);
  for (size_t host : Closest(net, shard1, 3)) {
    const auto page = net.dht(host).terms().Page(shard1, 0, 10);
    REQUIRE(page.size() == 1);
    CHECK(page.front()->weight_centi == 100);
    CHECK(page.front()->Signed().pointer.agent_id == "agent-filler");
  }
}

TEST_CASE("a tombstone record buries every pointer its skill had", "[sim]") {
  FakeNetwork net(/*seed=*/74);
  BuildDhtNetwork(net, 30, DhtConfig{});
  const SignedRecord live = Own(net, kPublisher);
  net.dht(kPublisher).Publish(net.now(), live, nullptr, kTerms);
  net.RunFor(transport::Seconds(30));
  const SignedRecord gone = Own(net, kPublisher, /*sequence=*/2, /*tombstone=*/true);
  net.dht(kPublisher).Publish(net.now(), gone, nullptr);
  net.RunFor(transport::Seconds(30));
  const RecordIdentity identity = IdentityOf(live.record);
  for (const IndexTerm& term : kTerms) {
    const auto held = PointersAt(net, TermKey(term.term), identity);
    CHECK(HostsOf(held) == Closest(net, TermKey(term.term), 3));
    for (const auto& [host, pointer] : held) {
      CHECK(pointer.pointer.tombstone);
      CHECK(pointer.pointer.weight_centi == 0);
      CHECK(pointer.pointer.name.empty());
      CHECK(pointer.pointer.sequence == 2);
      CHECK(pointer.pointer.ttl_seconds == gone.record.ttl_seconds);
    }
  }
  CHECK(net.dht(kPublisher).stats().term_pointers_buried == kTerms.size());
}

TEST_CASE("an update that drops a term buries that term's pointer and re-signs the others",
          "[sim]") {
  FakeNetwork net(/*seed=*/75);
  BuildDhtNetwork(net, 30, DhtConfig{});
  net.dht(kPublisher).Publish(net.now(), Own(net, kPublisher), nullptr, kTerms);
  net.RunFor(transport::Seconds(30));
  const SignedRecord update = Own(net, kPublisher, /*sequence=*/2);
  net.dht(kPublisher).Publish(net.now(), update, nullptr, {kTerms[0], kTerms[1]});
  net.RunFor(transport::Seconds(30));
  const RecordIdentity identity = IdentityOf(update.record);
  const auto dropped = PointersAt(net, TermKey("chart"), identity);
  CHECK(HostsOf(dropped) == Closest(net, TermKey("chart"), 3));
  for (const auto& [host, pointer] : dropped) {
    CHECK(pointer.pointer.tombstone);
    CHECK(pointer.pointer.sequence == 2);
  }
  for (const auto& [host, pointer] : PointersAt(net, TermKey("feishu"), identity)) {
    CHECK_FALSE(pointer.pointer.tombstone);
    CHECK(pointer.pointer.sequence == 2);
  }
  CHECK(net.dht(kPublisher).stats().term_pointers_buried == 1);
}

TEST_CASE("a pointer republished after its record was signed again carries the new sequence",
          "[sim]") {
  FakeNetwork net(/*seed=*/76);
  BuildDhtNetwork(net, 20, DhtConfig{});
  SkillDht& publisher = net.dht(kPublisher);
  std::vector<SignedRecord> resigned;
  publisher.SetResignedObserver([&](const SignedRecord& r) { resigned.push_back(r); });
  const SignedRecord record = Own(net, kPublisher);
  publisher.Publish(net.now(), record, nullptr, {kTerms[0]});
  net.RunFor(transport::Seconds(2 * 3600));  // two TTLs
  net.RunFor(transport::Seconds(30));        // the last republish's STOREs answered
  REQUIRE(resigned.size() >= 2);
  const auto held = PointersAt(net, TermKey("feishu"), IdentityOf(record.record));
  REQUIRE_FALSE(held.empty());
  for (const auto& [host, pointer] : held) {
    CHECK(pointer.pointer.sequence == resigned.back().record.sequence);
    CHECK(pointer.pointer.timestamp_ms == resigned.back().record.timestamp_ms);
    CHECK(pointer.pointer.weight_centi == kTerms[0].weight_centi);
  }
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms
