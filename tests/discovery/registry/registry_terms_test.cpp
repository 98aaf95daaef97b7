// The Registry publishes the keyword index (docs/protocol.md "Keyword index"): a registered
// skill's words reach the holders of their term keys as pointers to its record, and
// unregistering it buries them.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "discovery/registry/registry.h"
#include "kademlia/store/record/term_pointer.h"
#include "support/dht_network.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery {
namespace {

using testing::BuildDhtNetwork;
using testing::FakeNetwork;

// The pointers to skill `skill` held under the term's shard 0, over every host.
std::vector<kademlia::store::TermPointer> PointersTo(FakeNetwork& net, const std::string& term,
                                                     const std::string& skill) {
  std::vector<kademlia::store::TermPointer> found;
  for (size_t i = 0; i < net.size(); ++i) {
    for (const auto* held : net.dht(i).terms().Page(kademlia::store::TermKey(term), 0, 1024)) {
      kademlia::store::TermPointer pointer = held->Signed().pointer;
      if (pointer.skill_id == skill) found.push_back(std::move(pointer));
    }
  }
  return found;
}

TEST_CASE("registering a skill publishes pointers for its name's words; unregistering buries them",
          "[sim]") {
  FakeNetwork net(17);
  BuildDhtNetwork(net, 20, kademlia::store::DhtConfig{});
  RegistryConfig config;
  config.health = HealthPolicy{transport::Seconds(60), transport::Seconds(600), 3};
  // The daemon's registry signs with the node's own identity: its records get pointers.
  Registry registry(net.dht(0), net.node(0).identity(), config,
                    [&net] { return kademlia::store::SimulatedWallClockMs(net.now()); });
  kademlia::store::SkillRecord fields = testing::SampleRecord();
  fields.descriptor = kademlia::store::SkillDescriptor{};
  fields.descriptor->name = "Feishu calendar booking";
  fields.descriptor->description = "Books meetings in Feishu calendars.";
  const auto outcome = registry.Register(net.now(), fields);
  REQUIRE(outcome.status == RegisterStatus::kSuccess);
  net.RunFor(transport::Seconds(30));
  for (const std::string term : {"feishu", "calendar", "book"}) {
    const auto pointers = PointersTo(net, term, fields.skill_id);
    CHECK(pointers.size() == 3);  // on the r closest of the term's key
    for (const auto& p : pointers) {
      CHECK(p.name == "Feishu calendar booking");
      CHECK(p.sequence == outcome.record.sequence);
      CHECK_FALSE(p.tombstone);
    }
  }
  REQUIRE(registry.Unregister(net.now(), fields.agent_id, fields.skill_id,
                              kademlia::store::UnregisterReason::kShutdown));
  net.RunFor(transport::Seconds(30));
  const auto buried = PointersTo(net, "feishu", fields.skill_id);
  CHECK(buried.size() == 3);
  for (const auto& p : buried) CHECK(p.tombstone);
}

}  // namespace
}  // namespace skillnode::discovery
