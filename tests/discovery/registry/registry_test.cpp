// The Registry and the Searcher on a simulated network of skill-store nodes with a fake clock:
// registrations published by one node are found from another, health changes travel, expiry and
// unregistration remove them, the cache stays honest through DHT listen.
#include "discovery/registry/registry.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/search/searcher.h"
#include "support/fake_network.h"
#include "support/records.h"

namespace skillnode::discovery {
namespace {

using kademlia::store::SkillStatus;
using testing::FakeNetwork;

constexpr size_t kNodes = 12;
constexpr transport::Duration kInterval = transport::Millis(500);
constexpr int kThreshold = 3;
constexpr transport::Duration kTimeout = transport::Seconds(4);
constexpr transport::Duration kStep = transport::Millis(10);

kademlia::store::SkillRecord Fields(const std::string& skill = "skill-org-feishu",
                                    const std::string& agent = "agent-001") {
  kademlia::store::SkillRecord r = testing::SampleRecord(agent, skill);
  r.version = "0.7.2";
  return r;
}

// `nodes` nodes; node 0 runs the registry, the last node searches.
struct Cluster {
  explicit Cluster(size_t nodes = kNodes) : net(7) {
    kademlia::KademliaConfig config;
    config.routing.bucket_size = 8;
    net.AddDhtNode(config, kademlia::store::DhtConfig{});
    const transport::Endpoint seed = net.endpoint(0);
    for (size_t i = 1; i < nodes; ++i) {
      net.AddDhtNode(config, kademlia::store::DhtConfig{});
      net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
    }
    net.RunFor(transport::Seconds(30));
    RegistryConfig registry_config;
    registry_config.health = HealthPolicy{kInterval, kTimeout, kThreshold};
    registry_config.registrations_per_agent_max = 3;
    registry.emplace(net.dht(0), publisher, registry_config, [this] { return WallMs(); });
    remote_registry.emplace(net.dht(nodes - 1), remote_publisher, registry_config,
                            [this] { return WallMs(); });
    CacheConfig cache;
    cache.ttl = transport::Seconds(300);
    cache.size_max = 100;
    cache.refresh_before_expiry = transport::Seconds(60);
    searcher.emplace(net.dht(nodes - 1), *remote_registry, search::SearchConfig{}, cache);
  }

  uint64_t WallMs() const { return kademlia::store::SimulatedWallClockMs(net.now()); }

  // Advances the clock, driving the network, the registry and the searcher.
  void Advance(transport::Duration duration) {
    const transport::TimePoint until = net.now() + duration;
    while (net.now() < until) {
      net.RunFor(kStep);
      registry->OnTimer(net.now());
      searcher->OnTimer(net.now());
    }
  }

  // Searches from the far node and runs the network until the answer arrives.
  search::SearchResult Search(const SkillQuery& query, bool use_cache = false) {
    std::optional<search::SearchResult> result;
    searcher->Search(net.now(), query, search::SearchOptions{use_cache},
                     [&result](search::SearchResult r) { result = std::move(r); });
    for (int i = 0; i < 1000 && !result; ++i) Advance(kStep);
    REQUIRE(result.has_value());
    return *result;
  }

  std::optional<SkillStatus> StatusSeen(const std::string& skill, bool use_cache = false) {
    SkillQuery query;
    query.capabilities = {"org-data-read"};
    for (const search::Found& found : Search(query, use_cache).skills) {
      if (found.record().skill_id == skill) return found.record().status;
    }
    return std::nullopt;
  }

  FakeNetwork net;
  kademlia::Identity publisher = testing::Publisher("registry-node");
  kademlia::Identity remote_publisher = testing::Publisher("remote-node");
  std::optional<Registry> registry;
  std::optional<Registry> remote_registry;
  std::optional<search::Searcher> searcher;
};

TEST_CASE("a registration on one node is found from another by capability and scene", "[unit]") {
  Cluster c;
  const auto outcome = c.registry->Register(c.net.now(), Fields());
  REQUIRE(outcome.status == RegisterStatus::kSuccess);
  CHECK_FALSE(outcome.updated);
  c.Advance(transport::Millis(200));
  SkillQuery by_capability;
  by_capability.capabilities = {"user-auth"};
  const auto found = c.Search(by_capability);
  REQUIRE(found.skills.size() == 1);
  CHECK(found.skills[0].record().agent_id == "agent-001");
  CHECK(found.skills[0].source == Source::kDht);
  CHECK(found.skills[0].record().publisher == c.publisher.public_key());
  SkillQuery by_scene;
  by_scene.scenes = {"auth"};
  by_scene.version = SemverRange::Parse("^0.7").value();
  CHECK(c.Search(by_scene).skills.size() == 1);
  by_scene.version = SemverRange::Parse(">=1").value();
  const auto none = c.Search(by_scene);
  CHECK(none.skills.empty());
  REQUIRE(none.error.has_value());
  CHECK(*none.error == search::DiscError::kNoSkills);
  CHECK(search::DiscCode(*none.error) == "DISC_002");
}

TEST_CASE("the same registration again is a duplicate; a changed one is an update", "[unit]") {
  Cluster c;
  REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
  c.Advance(transport::Millis(100));
  CHECK(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kDuplicate);
  auto changed = Fields();
  changed.version = "0.8.0";
  const auto update = c.registry->Register(c.net.now(), changed);
  CHECK(update.status == RegisterStatus::kSuccess);
  CHECK(update.updated);
  c.Advance(transport::Millis(200));
  SkillQuery query;
  query.capabilities = {"org-data-read"};
  const auto found = c.Search(query);
  REQUIRE(found.skills.size() == 1);
  CHECK(found.skills[0].record().version == "0.8.0");
  CHECK(c.registry->size() == 1);
}

TEST_CASE("an invalid registration names the field and changes nothing", "[unit]") {
  Cluster c;
  REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
  auto bad = Fields("skill;semicolon");
  auto outcome = c.registry->Register(c.net.now(), bad);
  CHECK(outcome.status == RegisterStatus::kInvalid);
  CHECK(outcome.field == "skillId");
  bad = Fields();
  bad.capabilities.assign(kademlia::store::kCapabilitiesMax + 1, "c");
  for (size_t i = 0; i < bad.capabilities.size(); ++i) bad.capabilities[i] += std::to_string(i);
  outcome = c.registry->Register(c.net.now(), bad);
  CHECK(outcome.status == RegisterStatus::kInvalid);
  CHECK(outcome.field == "capabilities");
  CHECK(c.registry->size() == 1);
  CHECK(c.registry->Records()[0].capabilities == Fields().capabilities);
}

TEST_CASE("one agent's registrations are bounded", "[unit]") {
  Cluster c;
  for (int i = 0; i < 3; ++i) {
    CHECK(c.registry->Register(c.net.now(), Fields("s" + std::to_string(i))).status ==
          RegisterStatus::kSuccess);
  }
  const auto refused = c.registry->Register(c.net.now(), Fields("s3"));
  CHECK(refused.status == RegisterStatus::kInvalid);
  CHECK(refused.field == "agentId");
  CHECK(c.registry->Register(c.net.now(), Fields("s3", "agent-002")).status ==
        RegisterStatus::kSuccess);
}

TEST_CASE("missed heartbeats make a skill UNHEALTHY everywhere, then it expires", "[unit]") {
  Cluster c;
  REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
  c.Advance(transport::Millis(200));
  CHECK(c.StatusSeen("skill-org-feishu") == SkillStatus::kHealthy);
  // Heartbeats keep it healthy well past the threshold.
  for (int i = 0; i < 8; ++i) {
    c.Advance(kInterval);
    REQUIRE(
        c.registry->Heartbeat(c.net.now(), "agent-001", "skill-org-feishu", SkillStatus::kHealthy));
  }
  CHECK(c.StatusSeen("skill-org-feishu") == SkillStatus::kHealthy);
  const transport::TimePoint last = c.net.now();
  c.Advance(kInterval * kThreshold - transport::Millis(300));
  CHECK(c.registry->Records()[0].status == SkillStatus::kHealthy);
  c.Advance(transport::Millis(400));
  CHECK(c.registry->Records()[0].status == SkillStatus::kUnhealthy);
  CHECK(c.StatusSeen("skill-org-feishu") == SkillStatus::kUnhealthy);
  c.Advance(kTimeout - (c.net.now() - last) + transport::Millis(50));
  CHECK(c.registry->size() == 0);
  CHECK(c.registry->stats().expired == 1);
  CHECK_FALSE(c.StatusSeen("skill-org-feishu").has_value());
  // Expired: a heartbeat no longer revives it.
  CHECK_FALSE(
      c.registry->Heartbeat(c.net.now(), "agent-001", "skill-org-feishu", SkillStatus::kHealthy));
}

TEST_CASE("a reported status is published at once and a heartbeat restores health", "[unit]") {
  Cluster c;
  REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
  c.Advance(transport::Millis(100));
  REQUIRE(c.registry->Heartbeat(c.net.now(), "agent-001", "skill-org-feishu",
                                SkillStatus::kMaintenance));
  c.Advance(transport::Millis(100));
  CHECK(c.StatusSeen("skill-org-feishu") == SkillStatus::kMaintenance);
  REQUIRE(
      c.registry->Heartbeat(c.net.now(), "agent-001", "skill-org-feishu", SkillStatus::kHealthy));
  c.Advance(transport::Millis(100));
  CHECK(c.StatusSeen("skill-org-feishu") == SkillStatus::kHealthy);
}

TEST_CASE("unregistration removes the skill from every node's answers", "[unit]") {
  Cluster c;
  REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
  c.Advance(transport::Millis(200));
  REQUIRE(c.StatusSeen("skill-org-feishu").has_value());
  auto removed = c.registry->Unregister(c.net.now(), "agent-001", "skill-org-feishu",
                                        kademlia::store::UnregisterReason::kShutdown);
  REQUIRE(removed);
  c.Advance(transport::Millis(200));
  CHECK_FALSE(c.StatusSeen("skill-org-feishu").has_value());
  CHECK_FALSE(c.registry->Unregister(c.net.now(), "agent-001", "skill-org-feishu",
                                     kademlia::store::UnregisterReason::kShutdown));
}

TEST_CASE("UnregisterAll publishes a tombstone for every registration before it is done",
          "[unit]") {
  Cluster c;
  for (const char* skill : {"a", "b", "c"}) {
    REQUIRE(
        c.registry->Register(c.net.now(), Fields(skill, std::string("agent-") + skill)).status ==
        RegisterStatus::kSuccess);
  }
  c.Advance(transport::Millis(200));
  bool done = false;
  c.registry->UnregisterAll(c.net.now(), kademlia::store::UnregisterReason::kShutdown,
                            [&done] { done = true; });
  CHECK(c.registry->size() == 0);
  c.Advance(transport::Millis(500));
  CHECK(done);
  SkillQuery query;
  query.capabilities = {"org-data-read"};
  CHECK(c.Search(query).skills.empty());
}

TEST_CASE("a cached answer is used, then dropped when the skill's health changes", "[unit]") {
  Cluster c;
  REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
  c.Advance(transport::Millis(200));
  SkillQuery query;
  query.capabilities = {"org-data-read"};
  const uint64_t gets_before = c.net.dht(kNodes - 1).stats().gets_started;
  auto first = c.Search(query, /*use_cache=*/true);
  REQUIRE(first.skills.size() == 1);
  CHECK(first.skills[0].source == Source::kDht);
  c.Advance(transport::Millis(500));  // the listen subscription settles
  // The subscription that keeps the cached answer honest starts from the search's own get.
  CHECK(c.net.dht(kNodes - 1).stats().gets_started - gets_before == 1);
  CHECK(c.net.dht(kNodes - 1).stats().subscriptions_seeded == 1);
  auto second = c.Search(query, true);
  REQUIRE(second.skills.size() == 1);
  CHECK(second.skills[0].source == Source::kCache);
  REQUIRE(
      c.registry->Heartbeat(c.net.now(), "agent-001", "skill-org-feishu", SkillStatus::kDegraded));
  c.Advance(transport::Millis(300));  // the holders push the change to the searcher's subscription
  CHECK(c.StatusSeen("skill-org-feishu", /*use_cache=*/true) == SkillStatus::kDegraded);
  CHECK(c.searcher->stats().invalidations > 0);
}

TEST_CASE("a cached answer goes when the skill is unregistered as its subscription starts",
          "[unit]") {
  // The answer is cached the moment the get finishes, while the key's listen subscription is
  // still reading the key. A tombstone that reaches the holders in that gap is the first thing
  // the subscription sees, so it must start from the records the cached answer holds. The
  // unregistration is started at a range of moments around the end of the get to hit the gap;
  // with three nodes every node holds every record, the searcher's own store included.
  SkillQuery query;
  query.capabilities = {"org-data-read"};
  size_t cached_live = 0;
  for (int delay_ms = 0; delay_ms <= 60; delay_ms += 2) {
    Cluster c(3);
    REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
    c.Advance(transport::Millis(200));
    std::optional<search::SearchResult> first;
    c.searcher->Search(c.net.now(), query, search::SearchOptions{/*use_cache=*/true},
                       [&first](search::SearchResult r) { first = std::move(r); });
    for (int ms = 0; ms < 1000 && (!first || ms <= delay_ms); ++ms) {
      if (ms == delay_ms) {
        REQUIRE(c.registry->Unregister(c.net.now(), "agent-001", "skill-org-feishu",
                                       kademlia::store::UnregisterReason::kShutdown));
      }
      c.net.RunFor(transport::Millis(1));
      c.searcher->OnTimer(c.net.now());
    }
    REQUIRE(first.has_value());
    if (first->skills.empty()) continue;  // the get already met the tombstone
    ++cached_live;
    c.Advance(transport::Millis(500));
    INFO("unregistered " << delay_ms << " ms after the search started");
    CHECK_FALSE(c.StatusSeen("skill-org-feishu", /*use_cache=*/true).has_value());
  }
  CHECK(cached_live > 0);
}

TEST_CASE("a get that read a record before its unregistration does not cache it", "[unit]") {
  // The skill is registered on the searching node itself. Its tombstone reaches the node's
  // own store (and so the key's subscription) before the other holders; a get that read them
  // before the tombstone came and finishes after must not put the removed record back in the
  // cache. The get is started at a range of moments after the unregistration.
  SkillQuery query;
  query.capabilities = {"org-data-read"};
  for (int delay_ms = 0; delay_ms <= 40; delay_ms += 2) {
    Cluster c(3);
    REQUIRE(c.remote_registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
    c.Advance(transport::Millis(200));
    REQUIRE(c.Search(query, /*use_cache=*/true).skills.size() == 1);
    c.Advance(transport::Millis(500));  // the subscription settles
    REQUIRE(c.remote_registry->Unregister(c.net.now(), "agent-001", "skill-org-feishu",
                                          kademlia::store::UnregisterReason::kShutdown));
    c.net.RunFor(transport::Millis(delay_ms));
    c.searcher->Search(c.net.now(), query, search::SearchOptions{/*use_cache=*/false},
                       [](const search::SearchResult&) {});
    c.Advance(transport::Millis(500));
    INFO("the get started " << delay_ms << " ms after the unregistration");
    CHECK_FALSE(c.StatusSeen("skill-org-feishu", /*use_cache=*/true).has_value());
  }
}

TEST_CASE("a watch sees a skill added, changed and removed", "[unit]") {
  Cluster c;
  std::vector<std::pair<kademlia::store::ListenEvent::Kind, SkillStatus>> events;
  auto reason = kademlia::store::UnregisterReason::kNone;
  const uint64_t watch = c.searcher->Watch(c.net.now(), kademlia::store::SceneKey("auth"),
                                           [&](const kademlia::store::ListenEvent& e) {
                                             events.emplace_back(e.kind, e.record.record.status);
                                             reason = e.reason;
                                           });
  REQUIRE(watch != 0);
  c.Advance(transport::Millis(300));
  REQUIRE(c.registry->Register(c.net.now(), Fields()).status == RegisterStatus::kSuccess);
  c.Advance(transport::Millis(300));
  REQUIRE(
      c.registry->Heartbeat(c.net.now(), "agent-001", "skill-org-feishu", SkillStatus::kDegraded));
  c.Advance(transport::Millis(300));
  REQUIRE(c.registry->Unregister(c.net.now(), "agent-001", "skill-org-feishu",
                                 kademlia::store::UnregisterReason::kShutdown));
  c.Advance(transport::Millis(300));
  using Kind = kademlia::store::ListenEvent::Kind;
  REQUIRE(events.size() >= 3);
  CHECK(events.front().first == Kind::kAdded);
  CHECK(std::count(events.begin(), events.end(),
                   std::pair{Kind::kChanged, SkillStatus::kDegraded}) == 1);
  CHECK(events.back().first == Kind::kRemoved);
  CHECK(reason == kademlia::store::UnregisterReason::kShutdown);
  c.searcher->Unwatch(watch);
  CHECK(c.searcher->watchers() == 0);
}

TEST_CASE("a local registration is answered as local without waiting for others", "[unit]") {
  Cluster c;
  REQUIRE(c.remote_registry->Register(c.net.now(), Fields("local-skill")).status ==
          RegisterStatus::kSuccess);
  c.Advance(transport::Millis(200));
  SkillQuery query;
  query.skill_id = "local-skill";
  const auto found = c.Search(query);
  REQUIRE(found.skills.size() == 1);
  CHECK(found.skills[0].source == Source::kLocal);
  REQUIRE_FALSE(found.stages.empty());
  CHECK(found.stages.front().stage == "local");
}

}  // namespace
}  // namespace skillnode::discovery
