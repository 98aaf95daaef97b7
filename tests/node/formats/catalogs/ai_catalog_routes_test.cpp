// The AI Catalog's routes (node/formats/catalogs/ai_catalog_routes.h) on a lone node: the catalog
// of its agents, MCP servers and skills as application/ai-catalog+json, and GET / with the
// ai-catalog Link header.
#include "node/formats/catalogs/ai_catalog_routes.h"

#include <catch2/catch.hpp>

#include "tests/node/formats/formats_fixture.h"

namespace skillnode::node::formats::catalogs {
namespace {

using nlohmann::json;

std::string HeaderOf(const http::HttpResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

struct CatalogFixture : FormatsFixture {
  CatalogFixture()
      : routes(router, records, registry, auth,
               CatalogNode{.identity = &dht.node.identity(),
                           .now = [this] { return dht.now; },
                           .http_url = [] { return std::string("http://127.0.0.1:7070"); },
                           .config = [this]() -> const config::Config& { return config; }}) {}
  config::Config config;
  AiCatalogRoutes routes;
};

TEST_CASE("the AI Catalog lists the node's card, its agents, MCP servers and skills", "[unit]") {
  CatalogFixture f;
  f.config.provider.name = "Example provider";
  f.Register(McpServerRecord("org.a", "srv"));
  f.Register(AgentSkillRecord("org.b", "pdf"));
  kademlia::store::SkillRecord plain = testing::SampleRecord("org.c", "plain");
  f.Register(plain);
  const auto answer = f.Get("/.well-known/ai-catalog.json");
  CHECK(answer.status == 200);
  CHECK(answer.content_type == "application/ai-catalog+json");
  CHECK(HeaderOf(answer, "Access-Control-Allow-Origin") == "*");
  const json catalog = json::parse(answer.body);
  CHECK(catalog["specVersion"] == "1.0");
  CHECK(catalog["host"]["displayName"] == "Example provider");
  CHECK(catalog["host"]["identifier"].get<std::string>().starts_with("did:key:z6Mk"));
  std::vector<std::string> identifiers;
  for (const json& e : catalog["entries"]) identifiers.push_back(e["identifier"]);
  CHECK(identifiers ==
        std::vector<std::string>{"urn:skillnode:node:" + f.dht.node.identity().node_id().ToHex(),
                                 "urn:skillnode:a2a:org.a", "urn:skillnode:a2a:org.b",
                                 "urn:skillnode:a2a:org.c", "urn:skillnode:mcp:org.a:srv",
                                 "urn:skillnode:skill:org.b:pdf"});
}

TEST_CASE("GET / names the node's documents and links the AI Catalog", "[unit]") {
  CatalogFixture f;
  const auto answer = f.Get("/");
  CHECK(answer.status == 200);
  CHECK(HeaderOf(answer, "Link") ==
        "</.well-known/ai-catalog.json>; rel=\"ai-catalog\"; "
        "type=\"application/ai-catalog+json\"");
  const json root = json::parse(answer.body);
  CHECK(root["links"]["aiCatalog"] == "/.well-known/ai-catalog.json");
  CHECK(root["links"]["mcpRegistry"] == "/v0.1/servers");
  CHECK(root["links"].contains("console") == f.config.node.ui.enabled);
}

}  // namespace
}  // namespace skillnode::node::formats::catalogs
