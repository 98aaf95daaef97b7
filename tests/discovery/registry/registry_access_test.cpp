// The Registry's access levels and index ids (skill-sharing §5.5, §5.7) on a simulated network:
// a private registration never reaches the DHT, a public one turned private leaves it by a
// tombstone, and a registration whose index id another one has is refused naming both.
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery {
namespace {

using testing::FakeNetwork;

struct Net {
  Net() : net(11) {
    kademlia::KademliaConfig config;
    config.routing.bucket_size = 8;
    net.AddDhtNode(config, kademlia::store::DhtConfig{});
    const transport::Endpoint seed = net.endpoint(0);
    for (size_t i = 1; i < 6; ++i) {
      net.AddDhtNode(config, kademlia::store::DhtConfig{});
      net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
    }
    net.RunFor(transport::Seconds(30));
    registry.emplace(net.dht(0), publisher, RegistryConfig{},
                     [this] { return kademlia::store::SimulatedWallClockMs(net.now()); });
  }
  // Records any node's store holds for (agent, skill), tombstones included.
  std::vector<kademlia::store::SkillRecord> Stored(const std::string& skill) {
    std::vector<kademlia::store::SkillRecord> out;
    for (size_t i = 0; i < 6; ++i) {
      const kademlia::store::ValueStore& store = net.dht(i).store();
      for (const kademlia::store::StoredRecord* held :
           store.Get(kademlia::store::SkillKey(skill))) {
        out.push_back(held->value->record);
      }
    }
    return out;
  }
  FakeNetwork net;
  kademlia::Identity publisher = testing::Publisher("access-node");
  std::optional<Registry> registry;
};

kademlia::store::SkillRecord WithAccess(const std::string& access, const std::string& skill = "s") {
  kademlia::store::SkillRecord r = testing::SampleRecord("agent", skill);
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->access = access;
  r.descriptor->capability_type = "api";
  return r;
}

TEST_CASE("a private registration is kept on its node and never published", "[unit]") {
  Net n;
  std::vector<RegistryEvent> events;
  n.registry->AddObserver([&events](const RegistryEvent& e) { events.push_back(e); });
  REQUIRE(n.registry->Register(n.net.now(), WithAccess("private")).status ==
          RegisterStatus::kSuccess);
  n.net.RunFor(transport::Seconds(2));
  CHECK(n.Stored("s").empty());
  CHECK(n.registry->size() == 1);
  REQUIRE(
      n.registry->Heartbeat(n.net.now(), "agent", "s", kademlia::store::SkillStatus::kDegraded));
  REQUIRE(n.registry->Unregister(n.net.now(), "agent", "s",
                                 kademlia::store::UnregisterReason::kShutdown));
  n.net.RunFor(transport::Seconds(2));
  CHECK(n.Stored("s").empty());  // not even a tombstone
  REQUIRE(events.size() == 3);   // observers still learn of it, to filter on access
  CHECK(IsPrivate(events[0].record));
}

TEST_CASE("a public skill made private is tombstoned in the DHT; made public again it returns",
          "[unit]") {
  Net n;
  REQUIRE(n.registry->Register(n.net.now(), WithAccess("public")).status ==
          RegisterStatus::kSuccess);
  n.net.RunFor(transport::Seconds(2));
  auto stored = n.Stored("s");
  REQUIRE_FALSE(stored.empty());
  CHECK_FALSE(stored[0].tombstone);
  std::optional<RegistryEvent> update;
  n.registry->AddObserver([&update](const RegistryEvent& e) { update = e; });
  const auto outcome = n.registry->Register(n.net.now(), WithAccess("private"));
  REQUIRE(outcome.status == RegisterStatus::kSuccess);
  CHECK(outcome.updated);
  REQUIRE(update);
  CHECK_FALSE(update->was_private);
  n.net.RunFor(transport::Seconds(2));
  for (const auto& record : n.Stored("s")) {
    CHECK(record.tombstone);
    CHECK(record.reason == kademlia::store::UnregisterReason::kUpgrade);
    CHECK(record.descriptor->access == "public");  // the tombstone of the public version
  }
  REQUIRE(n.registry->Register(n.net.now(), WithAccess("restricted")).status ==
          RegisterStatus::kSuccess);
  CHECK(update->was_private);
  n.net.RunFor(transport::Seconds(2));
  stored = n.Stored("s");
  REQUIRE_FALSE(stored.empty());
  for (const auto& record : stored) CHECK_FALSE(record.tombstone);
}

TEST_CASE("an access level other than public, restricted or private is refused", "[unit]") {
  Net n;
  const auto outcome = n.registry->Register(n.net.now(), WithAccess("Private"));
  CHECK(outcome.status == RegisterStatus::kInvalid);
  CHECK(outcome.field == "descriptor.access");
  CHECK(n.registry->size() == 0);
}

TEST_CASE("a registration whose index id another has is refused naming both", "[unit]") {
  Net n;
  auto first = testing::SampleRecord("a.b", "c");
  first.version = "1.0.0";
  REQUIRE(n.registry->Register(n.net.now(), first).status == RegisterStatus::kSuccess);
  auto second = testing::SampleRecord("a", "b.c");
  second.version = "1.4.0";
  const auto outcome = n.registry->Register(n.net.now(), second);
  CHECK(outcome.status == RegisterStatus::kInvalid);
  CHECK(outcome.field == "skillId");
  CHECK_THAT(outcome.message, Catch::Contains("a.b.c-v1") &&
                                  Catch::Contains("agent a's skill b.c") &&
                                  Catch::Contains("agent a.b's skill c"));
  CHECK(n.registry->size() == 1);
  // Another major version is another id; an update of the same skill keeps its own id.
  second.version = "2.0.0";
  CHECK(n.registry->Register(n.net.now(), second).status == RegisterStatus::kSuccess);
  first.version = "1.1.0";
  CHECK(n.registry->Register(n.net.now(), first).status == RegisterStatus::kSuccess);
  REQUIRE(n.registry->FindByIndexId("a.b.c-v1") != nullptr);
  CHECK(n.registry->FindByIndexId("a.b.c-v1")->agent_id == "a.b");
  CHECK(n.registry->FindByIndexId("a.b.c-v2")->agent_id == "a");
  // Once the first is gone, its id is free.
  REQUIRE(n.registry->Unregister(n.net.now(), "a.b", "c",
                                 kademlia::store::UnregisterReason::kShutdown));
  CHECK(n.registry->FindByIndexId("a.b.c-v1") == nullptr);
  second.version = "1.0.0";
  CHECK(n.registry->Register(n.net.now(), second).status == RegisterStatus::kSuccess);
}

TEST_CASE("a query for one capability type is looked up under its type key", "[unit]") {
  SkillQuery query;
  query.capability_types = {"api"};
  CHECK(search::Searcher::QueryKey(query) == kademlia::store::CapabilityTypeKey("api"));
  query.scenes = {"auth"};  // capability and scene keys come first
  CHECK(search::Searcher::QueryKey(query) == kademlia::store::SceneKey("auth"));
  SkillQuery two;
  two.capability_types = {"api", "tool"};  // any of two types: no single key covers it
  CHECK_FALSE(search::Searcher::QueryKey(two));
}

TEST_CASE("an agent's query is looked up under its agent key, a format's under the format key",
          "[unit]") {
  SkillQuery query;
  query.format = kademlia::store::RecordFormat::kMcpServer;
  CHECK(search::Searcher::QueryKey(query) ==
        kademlia::store::FormatKey(kademlia::store::RecordFormat::kMcpServer));
  query.capability_types = {"api"};  // a type key is more selective than a format key
  CHECK(search::Searcher::QueryKey(query) == kademlia::store::CapabilityTypeKey("api"));
  query.agent_id = "weather";  // and an agent key more than a type key
  CHECK(search::Searcher::QueryKey(query) == kademlia::store::AgentKey("weather"));
  query.skill_id = "forecast";  // a skill key more than an agent key
  CHECK(search::Searcher::QueryKey(query) == kademlia::store::SkillKey("forecast"));
}

}  // namespace
}  // namespace skillnode::discovery
