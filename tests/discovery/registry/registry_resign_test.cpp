// A registration kept alive for longer than its record's TTL: the DHT signs the record again
// before its validity window ends (kademlia/store/skill_dht.h), the registration follows the
// version the network holds, and the next change numbers above it. And a clock that steps
// back never gives a tombstone an earlier window than the record it removes.
#include <catch2/catch.hpp>
#include <optional>
#include <span>

#include "discovery/registry/registry.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;

TEST_CASE("a registration outlives its record's TTL: the DHT signs it again and it follows",
          "[sim]") {
  FakeNetwork net(13);
  kademlia::store::DhtConfig dht_config;
  dht_config.republish_interval = transport::Seconds(20 * 60);
  BuildDhtNetwork(net, 10, dht_config);
  RegistryConfig config;
  config.health = HealthPolicy{transport::Seconds(60), transport::Seconds(600), 3};
  config.record_ttl_seconds = 3600;
  // The daemon's registry signs with the node's own identity.
  Registry registry(net.dht(0), net.node(0).identity(), config,
                    [&net] { return kademlia::store::SimulatedWallClockMs(net.now()); });
  const auto outcome = registry.Register(net.now(), testing::SampleRecord());
  REQUIRE(outcome.status == RegisterStatus::kSuccess);
  const uint64_t first = outcome.record.sequence;
  for (int minute = 0; minute < 150; ++minute) {
    net.RunFor(transport::Seconds(60));
    registry.OnTimer(net.now());
    REQUIRE(registry.Heartbeat(net.now(), "agent-001", "skill-org-feishu",
                               kademlia::store::SkillStatus::kHealthy));
  }
  REQUIRE(net.dht(0).stats().records_resigned >= 2);
  const kademlia::store::SkillRecord held = registry.Records().at(0);
  CHECK(held.sequence > first);
  CHECK(held.timestamp_ms > outcome.record.timestamp_ms + 3600 * 1000);
  std::optional<kademlia::store::GetResult> got;
  REQUIRE(net.dht(7).Get(net.now(), kademlia::store::SkillKey("skill-org-feishu"), {},
                         [&got](const kademlia::store::GetResult& r) { got = r; }));
  net.RunFor(transport::Seconds(30));
  REQUIRE(got.has_value());
  REQUIRE(got->records.size() == 1);
  CHECK(got->records[0]->record.sequence == held.sequence);
  // A change after the re-signs is a newer version than any of them.
  const auto changed = registry.Heartbeat(net.now(), "agent-001", "skill-org-feishu",
                                          kademlia::store::SkillStatus::kDegraded);
  REQUIRE(changed);
  CHECK(changed->sequence > held.sequence);
}

TEST_CASE(
    "a tombstone is never signed with a timestamp before its record's, even if the clock "
    "steps back",
    "[unit]") {
  FakeNetwork net(14);
  BuildDhtNetwork(net, 4, kademlia::store::DhtConfig{});
  uint64_t wall = kademlia::store::SimulatedWallClockMs(net.now());
  Registry registry(net.dht(0), net.node(0).identity(), RegistryConfig{}, [&wall] { return wall; });
  const auto outcome = registry.Register(net.now(), testing::SampleRecord());
  REQUIRE(outcome.status == RegisterStatus::kSuccess);
  std::optional<kademlia::store::SkillRecord> gone;
  registry.AddObserver([&gone](const RegistryEvent& event) { gone = event.record; });
  wall -= 600 * 1000;  // NTP steps the clock back ten minutes
  REQUIRE(registry.Unregister(net.now(), "agent-001", "skill-org-feishu",
                              kademlia::store::UnregisterReason::kShutdown));
  REQUIRE(gone.has_value());
  CHECK(gone->tombstone);
  CHECK(gone->timestamp_ms == outcome.record.timestamp_ms);
  CHECK(kademlia::store::NotAfterMs(*gone) >= kademlia::store::NotAfterMs(outcome.record));
  CHECK(gone->sequence > outcome.record.sequence);
}

}  // namespace
}  // namespace skillnode::discovery
