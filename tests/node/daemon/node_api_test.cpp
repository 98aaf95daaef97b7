// NodeApi: the daemon's own routes, through the router of a real Daemon that opens no socket
// (DHT and HTTP off) in a fresh data directory.
#include "node/daemon/node_api.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "node/daemon.h"
#include "tests/support/temp_dir.h"

namespace skillnode::node {
namespace {

struct Fixture {
  testing::TempDir dir;
  NullLogger logger;
  std::unique_ptr<Daemon> daemon;

  Fixture() {
    Config config;
    config.node.data_dir = dir.File("data");
    config.node.network_id = 42;
    config.node.http.enabled = false;
    config.node.ui.enabled = false;
    config.discovery.dht.enabled = false;
    config.discovery.mdns.enabled = false;
    auto created = Daemon::Create(config, logger);
    REQUIRE(created);
    daemon = std::move(*created);
  }

  HttpResponse Get(const std::string& target) {
    HttpRequest request;
    request.method = "GET";
    request.target = target;
    const size_t question = target.find('?');
    request.path = target.substr(0, question);
    if (question != std::string::npos) request.query = target.substr(question + 1);
    HttpResponse response;
    response.status = 0;
    auto slot = std::make_shared<ResponseSlot>();
    slot->deliver = [&response](HttpResponse r) { response = std::move(r); };
    daemon->router().Dispatch(request, Responder(slot));
    return response;
  }
};

TEST_CASE("GET /api/node names its fields in camelCase and keeps the old names for a release",
          "[uv]") {
  Fixture f;
  const HttpResponse response = f.Get("/api/node");
  REQUIRE(response.status == 200);
  const auto info = nlohmann::json::parse(response.body);
  CHECK(info["networkId"] == 42);
  CHECK(info["dataDir"] == f.dir.File("data"));
  CHECK(info["routingTable"]["contacts"] == 0);
  CHECK(info["dht"]["enabled"] == false);
  CHECK(info["dht"]["bootstrapPeers"].is_array());
  CHECK(info["https"].is_null());
  CHECK(info["version"] == kVersion);
  for (const NodeInfoAlias& alias : kNodeInfoAliases) {
    const nlohmann::json& object = alias.object[0] == '\0' ? info : info[alias.object];
    INFO(alias.name << " / " << alias.old_name);
    REQUIRE(object.contains(alias.name));
    CHECK(object[alias.old_name] == object[alias.name]);
  }
}

TEST_CASE("sections added through AddNodeInfo and AddMetrics appear in /api/node and /metrics",
          "[uv]") {
  Fixture f;
  f.daemon->AddNodeInfo("registry", [] { return nlohmann::json{{"registrations", 3}}; });
  f.daemon->AddMetrics([](PrometheusWriter& out) {
    out.Gauge("skillnode_test_parts", "A part's own family.", 5);
  });
  const auto info = nlohmann::json::parse(f.Get("/api/node").body);
  CHECK(info["registry"]["registrations"] == 3);
  const HttpResponse metrics = f.Get("/metrics");
  REQUIRE(metrics.status == 200);
  CHECK(metrics.content_type == kPrometheusContentType);
  CHECK(metrics.body.find("skillnode_info{") != std::string::npos);
  CHECK(metrics.body.find("network_id=\"42\"") != std::string::npos);
  CHECK(metrics.body.find("skillnode_state_saves_total 0") != std::string::npos);
  CHECK(metrics.body.find("skillnode_config_reloads_total{outcome=\"applied\"} 0") !=
        std::string::npos);
  CHECK(metrics.body.find("skillnode_test_parts 5") != std::string::npos);
}

TEST_CASE("GET /health answers ok with the bootstrap phase", "[uv]") {
  Fixture f;
  const HttpResponse response = f.Get("/health");
  REQUIRE(response.status == 200);
  const auto health = nlohmann::json::parse(response.body);
  CHECK(health["status"] == "ok");
  CHECK(health["contacts"] == 0);
  CHECK(health["dht"].is_string());
}

TEST_CASE("a DHT lookup names the bad key, and is refused with the DHT off", "[uv]") {
  Fixture f;
  const HttpResponse missing = f.Get("/api/dht/lookup");
  CHECK(missing.status == 400);
  CHECK(nlohmann::json::parse(missing.body)["details"]["field"] == "key");
  const HttpResponse bad = f.Get("/api/dht/lookup?key=xyz");
  CHECK(bad.status == 400);
  CHECK(nlohmann::json::parse(bad.body)["details"]["value"] == "xyz");
  const HttpResponse off = f.Get("/api/dht/lookup?key=" + std::string(64, 'a'));
  CHECK(off.status == 503);
  CHECK(nlohmann::json::parse(off.body)["error"] == "DHT_DISABLED");
  const HttpResponse contacts = f.Get("/api/dht/contacts");
  CHECK(contacts.status == 200);
  CHECK(nlohmann::json::parse(contacts.body)["contacts"].empty());
}

}  // namespace
}  // namespace skillnode::node
