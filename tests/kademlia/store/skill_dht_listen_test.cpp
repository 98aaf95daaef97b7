// SkillDht's listeners and subscriptions in seeded many-node runs: a status change seen within
// a round trip, a subscription seeded by its owner's get, a subscription moving to a closer
// newcomer, and a listener cut off for a while. Gets and publishing are in
// skill_dht_network_test.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

TEST_CASE("a listener sees a status change within one round trip plus one retry interval",
          "[sim]") {
  FakeNetwork net(/*seed=*/31);  // 10 ms one way
  BuildDhtNetwork(net, 60, DhtConfig{});
  const Identity publisher = Publisher();
  std::vector<ListenEvent> events;
  std::vector<transport::TimePoint> event_times;
  const Key key = CapabilityKey("user-auth");
  REQUIRE(net.dht(40).Listen(net.now(), key, [&](const ListenEvent& e) {
    events.push_back(e);
    event_times.push_back(net.now());
  }) != 0);
  net.RunFor(transport::Seconds(10));
  SkillRecord r = SampleRecord();
  net.dht(7).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(transport::Seconds(10));
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == ListenEvent::Kind::kAdded);

  r.sequence = 2;
  r.status = SkillStatus::kDegraded;
  std::optional<transport::TimePoint> stored_at;
  net.dht(7).Publish(net.now(), Signed(r, publisher),
                     [&](const PublishResult&) { stored_at = net.now(); });
  net.RunFor(transport::Seconds(10));
  REQUIRE(stored_at.has_value());
  REQUIRE(events.size() == 2);
  CHECK(events[1].kind == ListenEvent::Kind::kChanged);
  CHECK(events[1].record.record.status == SkillStatus::kDegraded);
  // The holders push as they store; the publisher learns of the store one way later.
  const transport::Duration round_trip = transport::Millis(20);
  CHECK(event_times[1] <= *stored_at + round_trip + KademliaConfig{}.rpc_timeout);
}

TEST_CASE("a subscription started from its owner's own get reads the key no second time", "[sim]") {
  FakeNetwork net(/*seed=*/35);
  BuildDhtNetwork(net, 40, DhtConfig{});  // r = 3
  const Identity publisher = Publisher();
  SkillRecord r = SampleRecord();
  net.dht(7).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(transport::Seconds(10));
  const Key key = CapabilityKey("user-auth");
  const size_t reader = 30;
  SkillDht& dht = net.dht(reader);
  const DhtStats before = dht.stats();
  std::optional<GetResult> got;
  REQUIRE(dht.Get(net.now(), key, GetOptions{}, [&](const GetResult& result) { got = result; }));
  net.RunFor(transport::Seconds(5));
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
  net.RunFor(transport::Seconds(5));
  // The holders push back what they hold: nothing new, and already verified.
  CHECK(dht.stats().pushes_received - before.pushes_received >= 2);
  CHECK(events.size() == 1);
  CHECK(dht.stats().records_verified == checked);

  r.sequence = 2;
  r.status = SkillStatus::kDegraded;
  net.dht(7).Publish(net.now(), Signed(r, publisher), nullptr);
  net.RunFor(transport::Seconds(10));
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
  const transport::Endpoint via = net.endpoint(listener);
  // A node not yet joined; the subscribed key is its own id, so it is the closest node to it.
  const size_t newcomer = net.size();
  net.AddDhtNode(KademliaConfig{}, DhtConfig{});
  const Key key = net.node(newcomer).id();
  REQUIRE(net.dht(listener).Listen(net.now(), key, nullptr) != 0);
  net.RunFor(transport::Seconds(10));
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
  net.RunFor(transport::Seconds(10));
  REQUIRE(net.node(listener).routing_table().Find(net.node(far).id()) != std::nullopt);
  CHECK(net.dht(listener).stats().subscriptions_renewed == renewed);

  // The closest node of all joins: the subscription moves to it at once.
  net.node(newcomer).Join(net.now(), std::span(&via, 1), nullptr);
  net.RunFor(transport::Seconds(10));
  REQUIRE(net.node(listener).routing_table().Find(net.node(newcomer).id()) != std::nullopt);
  CHECK(net.dht(listener).stats().subscriptions_renewed == renewed + 1);
  CHECK(net.dht(newcomer).listeners() == 1);
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
  net.RunFor(transport::Seconds(20));
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
  net.RunFor(transport::Seconds(5 * 60));
  net.SetSilent(listener, false);
  // Cut off, it evicted its contacts; the daemon's bootstrap joins it again.
  const transport::Endpoint seed = net.endpoint(0);
  net.node(listener).Join(net.now(), std::span(&seed, 1), nullptr);
  net.RunFor(transport::Seconds(5 * 60));  // at least one renewal

  std::map<std::string, uint64_t> view;
  for (const auto& r : net.dht(listener).ListenView(subscription)) {
    view[r.record.agent_id] = r.record.sequence;
  }
  const std::map<std::string, uint64_t> truth = {{"stays", 1}, {"changes", 2}, {"arrives", 1}};
  CHECK(view == truth);
}

}  // namespace
}  // namespace skillnode::kademlia::store
