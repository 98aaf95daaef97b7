// PlanReload: which changed keys a running node takes on SIGHUP, which wait for a restart, and
// what it runs on afterwards.
#include "node/service/config_reload.h"

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

namespace skillnode::node::config {
namespace {

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

TEST_CASE("an unchanged configuration plans nothing", "[unit]") {
  const Config running;
  const service::ReloadPlan plan = service::PlanReload(running, running);
  CHECK(plan.empty());
  CHECK(plan.merged == running);
}

TEST_CASE("reloadable keys are applied and the merged configuration takes them", "[unit]") {
  const Config running;
  Config next = running;
  next.node.log.level = transport::LogLevel::kDebug;
  next.node.auth.tokens_file = "/etc/skillnode/tokens";
  next.discovery.dht.bootstrap_nodes = {transport::HostPort{"seed.example", 6881}};
  next.discovery.skill_center.url = "https://catalog.example";
  next.discovery.skill_center.timeout = transport::Millis(2000);
  next.security.mode = SecurityMode::kVerify;
  next.security.shared_key = "k";
  next.node.https.cert_file = "/etc/skillnode/tls/new.pem";
  next.node.https.key_file = "/etc/skillnode/tls/new.key";
  const service::ReloadPlan plan = service::PlanReload(running, next);
  CHECK(plan.applied ==
        std::vector<std::string>{"node.log.level", "node.auth.tokensFile",
                                 "discovery.dht.bootstrapNodes", "node.https.certFile/keyFile",
                                 "discovery.skillCenter", "security (LAN signatures)"});
  CHECK(plan.restart.empty());
  CHECK(plan.merged == next);
}

TEST_CASE("every other change is reported by its section and not applied", "[unit]") {
  const Config running;
  const std::vector<std::pair<std::string, std::function<void(Config&)>>> changes = {
      {"node.port", [](Config& c) { c.node.port = 7000; }},
      {"node.bindIPv6", [](Config& c) { c.node.bind_ipv6.reset(); }},
      {"node.networkId", [](Config& c) { c.node.network_id = 9; }},
      {"node.dataDir", [](Config& c) { c.node.data_dir = "/srv/skillnode"; }},
      {"node.stateSaveInterval",
       [](Config& c) { c.node.state_save_interval = transport::Seconds(5); }},
      {"node.log.format", [](Config& c) { c.node.log.format = LogFormat::kJson; }},
      {"node.http", [](Config& c) { c.node.http.connections_max = 8; }},
      {"node.http", [](Config& c) { c.node.http.enabled = false; }},
      {"node.https",
       [](Config& c) {
         c.node.https.listen = transport::Endpoint(transport::Address::Loopback4(), 7443);
       }},
      {"node.https", [](Config& c) { c.node.https.handshake_timeout = transport::Seconds(3); }},
      {"node.bootstrap", [](Config& c) { c.node.bootstrap.retry_max = transport::Seconds(9); }},
      {"node.auth", [](Config& c) { c.node.auth.failures_per_minute = 1; }},
      {"node.skills", [](Config& c) { c.node.skills.fetches_max = 1; }},
      {"node.mcp", [](Config& c) { c.node.mcp.enabled = false; }},
      {"node.kademlia", [](Config& c) { c.node.kademlia.alpha = 5; }},
      {"node.kademlia", [](Config& c) { c.node.kademlia.routing.bucket_size = 8; }},
      {"discovery.udp", [](Config& c) { c.discovery.udp.port = 5000; }},
      {"discovery.mdns", [](Config& c) { c.discovery.mdns.enabled = false; }},
      {"discovery.dht", [](Config& c) { c.discovery.dht.replication_factor = 5; }},
      {"discovery.skillCenter.enabled", [](Config& c) { c.discovery.skill_center.enabled = true; }},
      {"discovery.healthCheck", [](Config& c) { c.discovery.health_check.retry_count = 1; }},
      {"discovery.cache", [](Config& c) { c.discovery.cache.size_max = 5; }},
      {"security.identityCertificate", [](Config& c) { c.security.identity_certificate = "c"; }},
      {"security.requireCertifiedPublishers",
       [](Config& c) { c.security.require_certified_publishers = true; }},
      {"provider", [](Config& c) { c.provider.name = "Example"; }},
  };
  for (const auto& [section, change] : changes) {
    Config next = running;
    change(next);
    const service::ReloadPlan plan = service::PlanReload(running, next);
    INFO(section);
    CHECK(plan.applied.empty());
    CHECK(plan.restart == std::vector<std::string>{section});
    CHECK(plan.merged == running);
  }
}

TEST_CASE("turning the SkillCenter stage on or off waits for a restart; its settings do not",
          "[unit]") {
  const Config running;
  Config next = running;
  next.discovery.skill_center.enabled = true;
  next.discovery.skill_center.url = "https://catalog.example";
  const service::ReloadPlan plan = service::PlanReload(running, next);
  CHECK(Has(plan.applied, "discovery.skillCenter"));
  CHECK(plan.restart == std::vector<std::string>{"discovery.skillCenter.enabled"});
  CHECK(plan.merged.discovery.skill_center.url == "https://catalog.example");
  CHECK_FALSE(plan.merged.discovery.skill_center.enabled);
}

TEST_CASE("new trusted roots reach the LAN at once and certified publishers at a restart",
          "[unit]") {
  Config running;
  running.security.require_certified_publishers = true;
  Config next = running;
  next.security.trusted_roots = {"/etc/skillnode/ca.pem"};
  const service::ReloadPlan plan = service::PlanReload(running, next);
  CHECK(plan.applied == std::vector<std::string>{"security (LAN signatures)"});
  CHECK(plan.restart == std::vector<std::string>{"security.trustedRoots (certified publishers)"});
}

}  // namespace
}  // namespace skillnode::node::config
