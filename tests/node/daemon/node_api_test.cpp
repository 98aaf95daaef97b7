// NodeApi: the daemon's own routes, through the router of a real Daemon that opens no socket
// (DHT and HTTP off) in a fresh data directory; and the whole GET /api/node document, with the
// sections the other parts of the node add, against its naming rule (camelCase, old names only
// as listed in kNodeInfoAliases).
#include "node/daemon/node_api.h"

#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>

#include "node/daemon.h"
#include "node/invoke/invoke_routes.h"
#include "node/lan/lan_service.h"
#include "node/mcp/mcp_routes.h"
#include "node/skill_service.h"
#include "node/skillcenter/skill_center_client.h"
#include "node/ui/health_history_routes.h"
#include "node/ui/ui_routes.h"
#include "tests/support/daemon_fixture.h"

namespace skillnode::node::daemon {
namespace {

// The daemon of these tests runs on network 42, so that /api/node's networkId is checked.
struct Fixture : testing::DaemonFixture {
  explicit Fixture(const std::function<void(config::Config&)>& adjust = {})
      : DaemonFixture([&adjust](config::Config& config) {
          config.node.network_id = 42;
          if (adjust) adjust(config);
        }) {}
};

TEST_CASE("GET /api/node names its fields in camelCase and keeps the old names for a release",
          "[uv]") {
  Fixture f;
  const http::HttpResponse response = f.Get("/api/node");
  REQUIRE(response.status == 200);
  const auto info = nlohmann::json::parse(response.body);
  CHECK(info["networkId"] == 42);
  CHECK(info["dataDir"] == f.dir.File("data"));
  CHECK(info["routingTable"]["contacts"] == 0);
  CHECK(info["dht"]["enabled"] == false);
  CHECK(info["dht"]["bootstrapPeers"].is_array());
  CHECK(info["https"].is_null());
  CHECK(info["version"] == kVersion);
  // The daemon's own renamed fields (the sections' are checked below, with their parts).
  for (const NodeInfoAlias& alias : kNodeInfoAliases) {
    const std::string object_path = alias.object;
    if (object_path != "" && object_path != "dht") continue;
    const nlohmann::json& object = object_path.empty() ? info : info[alias.object];
    INFO(alias.name << " / " << alias.old_name);
    REQUIRE(object.contains(alias.name));
    CHECK(object[alias.old_name] == object[alias.name]);
  }
}

TEST_CASE("sections added through AddNodeInfo and AddMetrics appear in /api/node and /metrics",
          "[uv]") {
  Fixture f;
  f.daemon->AddNodeInfo("registry", [] { return nlohmann::json{{"registrations", 3}}; });
  f.daemon->AddMetrics([](http::PrometheusWriter& out) {
    out.Gauge("skillnode_test_parts", "A part's own family.", 5);
  });
  const auto info = nlohmann::json::parse(f.Get("/api/node").body);
  CHECK(info["registry"]["registrations"] == 3);
  const http::HttpResponse metrics = f.Get("/metrics");
  REQUIRE(metrics.status == 200);
  CHECK(metrics.content_type == http::kPrometheusContentType);
  CHECK(metrics.body.find("skillnode_info{") != std::string::npos);
  CHECK(metrics.body.find("network_id=\"42\"") != std::string::npos);
  CHECK(metrics.body.find("skillnode_state_saves_total 0") != std::string::npos);
  CHECK(metrics.body.find("skillnode_config_reloads_total{outcome=\"applied\"} 0") !=
        std::string::npos);
  CHECK(metrics.body.find("skillnode_test_parts 5") != std::string::npos);
}

TEST_CASE("GET /health answers ok with the bootstrap phase", "[uv]") {
  Fixture f;
  const http::HttpResponse response = f.Get("/health");
  REQUIRE(response.status == 200);
  const auto health = nlohmann::json::parse(response.body);
  CHECK(health["status"] == "ok");
  CHECK(health["contacts"] == 0);
  CHECK(health["dht"].is_string());
}

TEST_CASE("a DHT lookup names the bad key, and is refused with the DHT off", "[uv]") {
  Fixture f;
  const http::HttpResponse missing = f.Get("/api/dht/lookup");
  CHECK(missing.status == 400);
  CHECK(nlohmann::json::parse(missing.body)["details"]["field"] == "key");
  const http::HttpResponse bad = f.Get("/api/dht/lookup?key=xyz");
  CHECK(bad.status == 400);
  CHECK(nlohmann::json::parse(bad.body)["details"]["value"] == "xyz");
  const http::HttpResponse off = f.Get("/api/dht/lookup?key=" + std::string(64, 'a'));
  CHECK(off.status == 503);
  CHECK(nlohmann::json::parse(off.body)["error"] == "DHT_DISABLED");
  const http::HttpResponse contacts = f.Get("/api/dht/contacts");
  CHECK(contacts.status == 200);
  CHECK(nlohmann::json::parse(contacts.body)["contacts"].empty());
}

// The object at a dotted `path` ("", "ui.lastCspReport") of `json`.
const nlohmann::json& At(const nlohmann::json& json, const std::string& path) {
  if (path.empty()) return json;
  const size_t dot = path.find('.');
  const nlohmann::json& member = json.at(path.substr(0, dot));
  return dot == std::string::npos ? member : At(member, path.substr(dot + 1));
}

// Every key of `json` at `path` (as in kNodeInfoAliases) and below: camelCase, or the listed old
// name of a renamed field. Records the paths of the objects seen.
void CheckNames(const nlohmann::json& json, const std::string& path, std::set<std::string>& seen) {
  static const std::regex kCamelCase("[a-z][a-zA-Z0-9]*");
  if (json.is_array()) {
    for (const auto& element : json) CheckNames(element, path + "[]", seen);
    return;
  }
  if (!json.is_object()) return;
  seen.insert(path);
  for (const auto& [key, value] : json.items()) {
    INFO("GET /api/node " << (path.empty() ? "" : path + ".") << key);
    // An old name's value is a copy of the new name's, checked under the new name.
    if (IsOldNodeInfoName(path, key)) continue;
    CHECK(std::regex_match(key, kCamelCase));
    CheckNames(value, path.empty() ? key : path + "." + key, seen);
  }
}

TEST_CASE("every key of GET /api/node, with every part's section, is camelCase or a listed alias",
          "[uv]") {
  Fixture f([](config::Config& config) {
    config.node.ui.enabled = true;
    config.discovery.skill_center.enabled = true;
    config.discovery.skill_center.url = "http://127.0.0.1:9/catalog";
    config.discovery.skill_center.token = "token";
    config.discovery.udp.port = 0;
  });
  // The parts the node's `run` starts (node/node_runner.cpp), destroyed before the daemon.
  SkillService skills(*f.daemon);
  auto invoke_routes = invoke::AddInvokeRoutes(*f.daemon, skills);
  auto mcp_routes = mcp::AddMcpRoutes(*f.daemon, skills);
  ui::HealthHistoryRoutes health_history(*f.daemon, skills);
  auto skill_center = skillcenter::SkillCenterClient::Create(*f.daemon, skills);
  REQUIRE(skill_center);
  // The LAN adapter needs a multicast-capable interface; without one its section is missing.
  auto lan = lan::LanService::Create(*f.daemon, skills);
  if (!lan) WARN("no LAN section: " << lan.error().message);
  // A report too large to keep: lastCspReport holds the node's own {"tooLarge": bytes}.
  const std::string too_large(ui::kCspReportBytesMax + 1, 'x');
  REQUIRE(f.Send("POST", "/ui/csp-report", too_large).status == 204);

  const http::HttpResponse response = f.Get("/api/node");
  REQUIRE(response.status == 200);
  const auto info = nlohmann::json::parse(response.body);
  for (const char* section : {"registry", "auth", "skillFolders", "invoke", "mcp", "ui",
                              "healthHistory", "skillcenter"}) {
    CHECK(info.contains(section));
  }
  std::set<std::string> seen;
  CheckNames(info, "", seen);
  // Each alias of an object the document has is sent under both names (a typo in the table,
  // or a field renamed in one place only, fails here). lan.peers[] needs a peer on the LAN.
  for (const NodeInfoAlias& alias : kNodeInfoAliases) {
    if (!lan && std::string(alias.object).starts_with("lan")) continue;
    if (std::string(alias.object) == "lan.peers[]") continue;
    INFO(alias.object << " " << alias.name << " / " << alias.old_name);
    REQUIRE(seen.contains(alias.object));
    const nlohmann::json& object = At(info, alias.object);
    REQUIRE(object.contains(alias.name));
    CHECK(object[alias.old_name] == object[alias.name]);
  }
  CHECK(info["ui"]["lastCspReport"]["tooLarge"] == ui::kCspReportBytesMax + 1);
  CHECK(info["ui"]["last_csp_report"]["too_large"] == ui::kCspReportBytesMax + 1);
  CHECK(info["invoke"]["runningMax"] == info["invoke"]["running_max"]);

  // Stop the node as `run` does, so that the parts' close hooks run while the parts exist.
  bool stop_requested = false;
  f.daemon->AddStepper({[&] { return stop_requested ? transport::kTimeNever : f.daemon->Now(); },
                        [&](transport::TimePoint) {
                          stop_requested = true;
                          f.daemon->RequestStop();
                        }});
  CHECK(f.daemon->Run() == 0);
}

}  // namespace
}  // namespace skillnode::node::daemon
