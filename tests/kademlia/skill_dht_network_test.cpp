// SkillDht in seeded many-node runs: records published by one node found by all, replica repair
// after an eviction, read repair, tombstones, and listeners. One node driven by hand is in
// skill_dht_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "kademlia/skill_dht.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::kademlia {
namespace {

using testing::FakeNetwork;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

// A network of `count` nodes with the skill store, joined through node 0.
void BuildDhtNetwork(FakeNetwork& net, size_t count, const DhtConfig& dht_config) {
  KademliaConfig config;
  config.routing.bucket_size = 8;
  net.AddDhtNode(config, dht_config);
  const Endpoint seed = net.endpoint(0);
  for (size_t i = 1; i < count; ++i) {
    net.AddDhtNode(config, dht_config);
    net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
    if (i % 10 == 0) net.RunFor(Seconds(1));
  }
  net.RunFor(Seconds(60));
}

// Each host gets every record key from `keys`; returns how many (host, key) gets found all
// the identities in `expected`.
size_t GetEverywhere(FakeNetwork& net, const Key& key, const std::set<std::string>& expected,
                     size_t* asked) {
  std::vector<std::optional<GetResult>> results(net.size());
  for (size_t i = 0; i < net.size(); ++i) {
    if (net.silent(i)) continue;
    REQUIRE(net.dht(i).Get(net.now(), key, GetOptions{},
                           [&results, i](const GetResult& r) { results[i] = r; }));
  }
  net.RunFor(Seconds(30));
  size_t complete = 0;
  *asked = 0;
  for (size_t i = 0; i < net.size(); ++i) {
    if (net.silent(i)) continue;
    ++*asked;
    REQUIRE(results[i].has_value());
    std::set<std::string> found;
    for (const auto& r : results[i]->records) {
      if (!r->record.tombstone) found.insert(r->record.agent_id);
    }
    complete += found == expected;
  }
  return complete;
}

TEST_CASE("records published by one node are found by every other, and survive 30% leaving",
          "[sim]") {
  FakeNetwork net(/*seed=*/21);
  DhtConfig dht_config;
  dht_config.republish_interval = Seconds(10 * 60);
  BuildDhtNetwork(net, 100, dht_config);
  const Identity publisher = Publisher();
  std::set<std::string> agents;
  for (int i = 0; i < 10; ++i) {
    SkillRecord r = SampleRecord("agent-" + std::to_string(i));
    net.dht(static_cast<size_t>(i) * 7).Publish(net.now(), Signed(r, publisher), nullptr);
    agents.insert(r.agent_id);
  }
  net.RunFor(Seconds(30));
  size_t asked = 0;
  CHECK(GetEverywhere(net, CapabilityKey("user-auth"), agents, &asked) == asked);

  // 30% leave at once (never a publisher), then one republish round runs.
  Rng rng(22);
  size_t gone = 0;
  while (gone < 30) {
    const auto victim = static_cast<size_t>(rng.Below(net.size()));
    if (victim % 7 == 0 || net.silent(victim)) continue;
    net.SetSilent(victim, true);
    ++gone;
  }
  net.RunFor(Seconds(11 * 60));
  CHECK(GetEverywhere(net, SceneKey("auth"), agents, &asked) == asked);
  CHECK(asked == 70);
}

// Hosts (not silent) holding a record under `key`.
std::vector<size_t> Holders(FakeNetwork& net, const Key& key) {
  std::vector<size_t> holders;
  for (size_t i = 0; i < net.size(); ++i) {
    if (!net.silent(i) && !net.dht(i).store().Get(key).empty()) holders.push_back(i);
  }
  return holders;
}

TEST_CASE("when a holder is evicted, the others give its copy to the node in its place", "[sim]") {
  FakeNetwork net(/*seed=*/31);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3, republish every 20 minutes
  net.dht(0).Publish(net.now(), Signed(SampleRecord(), Publisher()), nullptr);
  net.RunFor(Seconds(30));
  const Key key = CapabilityKey("user-auth");
  const std::vector<size_t> before = Holders(net, key);
  REQUIRE(before.size() >= 3);
  // The holder farthest from the key goes silent; no republish is due for 19 minutes.
  const size_t gone = before.back() == 0 ? before.front() : before.back();
  net.SetSilent(gone, true);
  REQUIRE(Holders(net, key).size() == before.size() - 1);
  // Each other holder's requests to it time out stale_failures_max (3) times: it is evicted.
  for (int attempt = 0; attempt < 3; ++attempt) {
    for (size_t holder : before) {
      if (holder == gone) continue;
      net.node(holder).Request(net.now(), net.endpoint(gone), net.node(gone).id(), PingBody{},
                               nullptr);
    }
    net.RunFor(Seconds(2));
  }
  net.RunFor(Seconds(5));
  for (size_t holder : before) {
    if (holder != gone)
      CHECK(net.node(holder).routing_table().Find(net.node(gone).id()) == nullptr);
  }
  uint64_t repaired = 0;
  for (size_t i = 0; i < net.size(); ++i) repaired += net.dht(i).stats().repair_keys;
  CHECK(repaired >= 1);
  // Back to as many live copies as before, long before the publisher's next republish.
  const std::vector<size_t> after = Holders(net, key);
  CHECK(after.size() == before.size());
  CHECK(std::find(after.begin(), after.end(), gone) == after.end());
}

TEST_CASE("a get gives a record to a close node that lacks it, for no longer than it has left",
          "[sim]") {
  FakeNetwork net(/*seed=*/32);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3
  const Key key = CapabilityKey("user-auth");
  // The node closest to the key (not the publisher) is away while the record is published.
  size_t closest = 1;
  for (size_t i = 2; i < net.size(); ++i) {
    if (CloserTo(key, net.node(i).id(), net.node(closest).id())) closest = i;
  }
  net.SetSilent(closest, true);
  net.dht(0).Publish(net.now(), Signed(SampleRecord(), Publisher()), nullptr);
  net.RunFor(Seconds(30));
  net.SetSilent(closest, false);
  const std::vector<size_t> before = Holders(net, key);
  REQUIRE(before.size() >= 3);
  REQUIRE(std::find(before.begin(), before.end(), closest) == before.end());
  TimePoint latest_expiry = kTimeZero;
  for (size_t holder : before) {
    latest_expiry = std::max(latest_expiry, net.dht(holder).store().Get(key)[0]->expires_at);
  }
  net.RunFor(Seconds(60));
  // A get from a node that holds nothing reaches the closest node, which answers in full
  // without the record: the get stores it there.
  size_t asker = 1;
  while (asker == closest || std::find(before.begin(), before.end(), asker) != before.end()) {
    ++asker;
  }
  std::optional<GetResult> result;
  REQUIRE(net.dht(asker).Get(net.now(), key, GetOptions{},
                             [&result](const GetResult& r) { result = r; }));
  net.RunFor(Seconds(10));
  REQUIRE(result.has_value());
  REQUIRE(result->records.size() == 1);
  CHECK(net.dht(asker).stats().read_repairs >= 1);
  const auto repaired = net.dht(closest).store().Get(key);
  REQUIRE(repaired.size() == 1);
  // Not a fresh TTL: the copy expires when the others do (to the second).
  CHECK(repaired[0]->expires_at <= latest_expiry + Seconds(1));
  CHECK(repaired[0]->expires_at >= latest_expiry - Seconds(1));
  // Every close node now holds it: another get repairs nothing.
  const uint64_t repairs = net.dht(asker).stats().read_repairs;
  result.reset();
  REQUIRE(net.dht(asker).Get(net.now(), key, GetOptions{},
                             [&result](const GetResult& r) { result = r; }));
  net.RunFor(Seconds(10));
  REQUIRE(result.has_value());
  CHECK(net.dht(asker).stats().read_repairs == repairs);
}

TEST_CASE("a tombstone removes a record everywhere before it expires", "[sim]") {
  FakeNetwork net(/*seed=*/23);
  BuildDhtNetwork(net, 40, DhtConfig{});
  const Identity publisher = Publisher();
  SkillRecord live = SampleRecord();
  net.dht(3).Publish(net.now(), Signed(live, publisher), nullptr);
  net.RunFor(Seconds(20));
  SkillRecord gone = live;
  gone.sequence = 2;
  gone.tombstone = true;
  gone.reason = UnregisterReason::kShutdown;
  std::optional<PublishResult> published;
  net.dht(3).Publish(net.now(), Signed(gone, publisher),
                     [&](const PublishResult& r) { published = r; });
  net.RunFor(Seconds(20));
  REQUIRE(published.has_value());
  CHECK(published->stored > 0);
  size_t asked = 0;
  CHECK(GetEverywhere(net, SkillKey("skill-org-feishu"), {}, &asked) == asked);
}

TEST_CASE("a listener sees a status change within one round trip plus one retry interval",
          "[sim]") {
  FakeNetwork net(/*seed=*/31);  // 10 ms one way
  BuildDhtNetwork(net, 60, DhtConfig{});
  const Identity publisher = Publisher();
  std::vector<ListenEvent> events;
  std::vector<TimePoint> event_times;
  const Key key = CapabilityKey("user-auth");
  REQUIRE(net.dht(40).Listen(net.now(), key, [&](const ListenEvent& e) {
    events.push_back(e);
    event_times.push_back(net.now());
  }) != 0);
  net.RunFor(Seconds(10));
  SkillRecord r = SampleRecord();
  net.dht(7).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(Seconds(10));
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ListenEvent::Kind::kAdded);

  r.sequence = 2;
  r.status = SkillStatus::kDegraded;
  std::optional<TimePoint> stored_at;
  net.dht(7).Publish(net.now(), Signed(r, publisher),
                     [&](const PublishResult&) { stored_at = net.now(); });
  net.RunFor(Seconds(10));
  REQUIRE(stored_at.has_value());
  REQUIRE(events.size() == 2);
  CHECK(events[1].kind == ListenEvent::Kind::kChanged);
  CHECK(events[1].record.record.status == SkillStatus::kDegraded);
  // The holders push as they store; the publisher learns of the store one way later.
  const Duration round_trip = Millis(20);
  CHECK(event_times[1] <= *stored_at + round_trip + KademliaConfig{}.rpc_timeout);
}

TEST_CASE("a subscription started from its owner's own get reads the key no second time", "[sim]") {
  FakeNetwork net(/*seed=*/35);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3
  const Identity publisher = Publisher();
  SkillRecord r = SampleRecord();
  net.dht(7).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(Seconds(10));
  const Key key = CapabilityKey("user-auth");
  const size_t reader = 30;
  SkillDht& dht = net.dht(reader);
  const DhtStats before = dht.stats();
  std::optional<GetResult> got;
  REQUIRE(dht.Get(net.now(), key, GetOptions{}, [&](const GetResult& result) { got = result; }));
  net.RunFor(Seconds(5));
  REQUIRE(got.has_value());
  REQUIRE(got->records.size() == 1);
  // Every holder answered with the record; its signature was checked at most once (not at all
  // when the reader had met the record before, a handoff or a read repair).
  const uint64_t checked = dht.stats().records_verified;
  CHECK(checked - before.records_verified <= 1);
  CHECK(dht.stats().records_verified_again - before.records_verified_again >= 2);

  std::vector<ListenEvent> events;
  const uint64_t subscription = dht.Listen(
      net.now(), key, [&](const ListenEvent& e) { events.push_back(e); }, &*got);
  REQUIRE(subscription != 0);
  CHECK(dht.stats().gets_started - before.gets_started == 1);
  CHECK(dht.stats().subscriptions_seeded - before.subscriptions_seeded == 1);
  REQUIRE(events.size() == 1);  // the record the get found, at once
  CHECK(events[0].kind == ListenEvent::Kind::kAdded);
  net.RunFor(Seconds(5));
  // The holders push back what they hold: nothing new, and already verified.
  CHECK(dht.stats().pushes_received - before.pushes_received >= 2);
  CHECK(events.size() == 1);
  CHECK(dht.stats().records_verified == checked);

  r.sequence = 2;
  r.status = SkillStatus::kDegraded;
  net.dht(7).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(Seconds(10));
  REQUIRE(events.size() == 2);
  CHECK(events[1].kind == ListenEvent::Kind::kChanged);
  CHECK(events[1].record.record.status == SkillStatus::kDegraded);
  CHECK(dht.stats().gets_started - before.gets_started == 1);  // still no read of its own

  // Without a get of its own, a subscription reads the key first.
  REQUIRE(dht.Listen(net.now(), SceneKey("auth"), nullptr) != 0);
  CHECK(dht.stats().gets_started - before.gets_started == 2);
}

TEST_CASE("a subscription moves to a newcomer closer than its holders, and only then", "[sim]") {
  FakeNetwork net(/*seed=*/36);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3
  const size_t listener = 30;
  const Endpoint via = net.endpoint(listener);
  // A node not yet joined; the subscribed key is its own id, so it is the closest node to it.
  const size_t newcomer = net.size();
  net.AddDhtNode(KademliaConfig{}, DhtConfig{});
  const Key key = net.node(newcomer).id();
  REQUIRE(net.dht(listener).Listen(net.now(), key, nullptr) != 0);
  net.RunFor(Seconds(10));
  const uint64_t renewed = net.dht(listener).stats().subscriptions_renewed;
  // The holders it listens on: the r closest to the key but for itself.
  std::vector<NodeId> holders;
  for (size_t i = 0; i < newcomer; ++i) {
    if (i != listener) holders.push_back(net.node(i).id());
  }
  std::sort(holders.begin(), holders.end(),
            [&](const NodeId& a, const NodeId& b) { return CloserTo(key, a, b); });
  holders.resize(3);

  // A newcomer farther from the key than the holders moves nothing.
  size_t far = net.size();
  net.AddDhtNode(KademliaConfig{}, DhtConfig{});
  while (CloserTo(key, net.node(far).id(), holders.back()) ||
         !CloserTo(key, net.node(far).id(), net.node(listener).id())) {
    far = net.size();
    net.AddDhtNode(KademliaConfig{}, DhtConfig{});
  }
  net.node(far).Join(net.now(), std::span(&via, 1), nullptr);
  net.RunFor(Seconds(10));
  REQUIRE(net.node(listener).routing_table().Find(net.node(far).id()) != nullptr);
  CHECK(net.dht(listener).stats().subscriptions_renewed == renewed);

  // The closest node of all joins: the subscription moves to it at once.
  net.node(newcomer).Join(net.now(), std::span(&via, 1), nullptr);
  net.RunFor(Seconds(10));
  REQUIRE(net.node(listener).routing_table().Find(net.node(newcomer).id()) != nullptr);
  CHECK(net.dht(listener).stats().subscriptions_renewed == renewed + 1);
  CHECK(net.dht(newcomer).listeners() == 1);
}

TEST_CASE("a get ends once its lookup_closest closest nodes have answered", "[sim]") {
  // The same network and get, waiting for the 8 closest and for all k = 20.
  auto run = [](size_t lookup_closest) {
    FakeNetwork net(/*seed=*/37);
    DhtConfig dht_config;
    dht_config.lookup_closest = lookup_closest;
    net.AddDhtNode(KademliaConfig{}, dht_config);  // k = 20
    const Endpoint seed = net.endpoint(0);
    for (size_t i = 1; i < 80; ++i) {
      net.AddDhtNode(KademliaConfig{}, dht_config);
      net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
      if (i % 10 == 0) net.RunFor(Seconds(1));
    }
    net.RunFor(Seconds(60));
    net.dht(5).Publish(net.now(), Signed(SampleRecord(), Publisher()), nullptr);
    net.RunFor(Seconds(10));
    std::optional<GetResult> got;
    REQUIRE(net.dht(60).Get(net.now(), CapabilityKey("user-auth"), GetOptions{},
                            [&](const GetResult& result) { got = result; }));
    net.RunFor(Seconds(5));
    REQUIRE(got.has_value());
    return *got;
  };
  const GetResult eight = run(8);
  const GetResult all = run(20);
  CHECK(eight.records.size() == 1);
  CHECK(all.records.size() == 1);
  CHECK(eight.closest.size() == 8);
  CHECK(all.closest.size() == 20);
  // The 8 are the closest of the 20.
  CHECK(std::equal(eight.closest.begin(), eight.closest.end(), all.closest.begin(),
                   [](const Contact& a, const Contact& b) { return a.id == b.id; }));
  INFO("FIND_VALUE requests: " << eight.stats.messages << " for 8, " << all.stats.messages
                               << " for 20");
  CHECK(eight.stats.messages + 8 <= all.stats.messages);
}

TEST_CASE("a listener cut off for a while ends with exactly the current records", "[sim]") {
  FakeNetwork net(/*seed=*/33);
  DhtConfig dht_config;
  BuildDhtNetwork(net, 60, dht_config);
  const Identity publisher = Publisher();
  const Key key = SceneKey("auth");
  const size_t listener = 50;
  const uint64_t subscription = net.dht(listener).Listen(net.now(), key, nullptr);
  REQUIRE(subscription != 0);
  auto publish = [&](SkillRecord r) {
    net.dht(5).Publish(net.now(), Signed(r, publisher), nullptr);
  };
  SkillRecord stays = SampleRecord("stays"), changes = SampleRecord("changes"),
              leaves = SampleRecord("leaves"), expires = SampleRecord("expires");
  expires.ttl_seconds = 120;
  for (const auto& r : {stays, changes, leaves, expires}) publish(r);
  net.RunFor(Seconds(20));
  REQUIRE(net.dht(listener).ListenView(subscription).size() == 4);

  net.SetSilent(listener, true);
  changes.sequence = 2;
  changes.status = SkillStatus::kMaintenance;
  publish(changes);
  leaves.sequence = 2;
  leaves.tombstone = true;
  leaves.reason = UnregisterReason::kUpgrade;
  publish(leaves);
  net.dht(5).Forget(IdentityOf(Signed(expires, publisher).record));  // no republish: it expires
  publish(SampleRecord("arrives"));
  net.RunFor(Seconds(5 * 60));
  net.SetSilent(listener, false);
  // Cut off, it evicted its contacts; the daemon's bootstrap joins it again.
  const Endpoint seed = net.endpoint(0);
  net.node(listener).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(Seconds(5 * 60));  // at least one renewal

  std::map<std::string, uint64_t> view;
  for (const auto& r : net.dht(listener).ListenView(subscription)) {
    view[r.record.agent_id] = r.record.sequence;
  }
  const std::map<std::string, uint64_t> truth = {{"stays", 1}, {"changes", 2}, {"arrives", 1}};
  CHECK(view == truth);
}

}  // namespace
}  // namespace skillnode::kademlia
