// The MCP Registry read API's routes (node/formats/mcp_registry/mcp_registry_routes.h) on a lone
// node: the list with its cursors, versions, latest, 404s, the 501 for publish, /v0, the bare
// server.json, and private servers only with a token.
#include "node/formats/mcp_registry/mcp_registry_routes.h"

#include <catch2/catch.hpp>

#include "tests/node/formats/formats_fixture.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

using nlohmann::json;

struct RegistryRoutesFixture : FormatsFixture {
  RegistryRoutesFixture() : routes(router, records, auth, [this] { return dht.now; }) {
    for (int i = 0; i < 5; ++i) Register(McpServerRecord("org.n" + std::to_string(i), "srv"));
    Register(AgentSkillRecord("org.n0", "not-a-server"));
    kademlia::store::SkillRecord secret = McpServerRecord("org.secret", "srv");
    secret.descriptor->access = "private";
    Register(secret);
  }
  McpRegistryRoutes routes;
};

std::vector<std::string> Names(const json& list) {
  std::vector<std::string> out;
  for (const json& s : list["servers"]) out.push_back(s["server"]["name"]);
  return out;
}

TEST_CASE("the server list pages through every MCP server with its cursor", "[unit]") {
  RegistryRoutesFixture f;
  const json first = f.GetJson("/v0.1/servers?limit=2");
  CHECK(Names(first) == std::vector<std::string>{"org.n0/srv", "org.n1/srv"});
  CHECK(first["metadata"]["count"] == 2);
  std::vector<std::string> all = Names(first);
  json page = first;
  while (page["metadata"].contains("nextCursor")) {
    page = f.GetJson("/v0.1/servers?limit=2&cursor=" +
                     page["metadata"]["nextCursor"].get<std::string>());
    for (const std::string& name : Names(page)) all.push_back(name);
  }
  CHECK(all == std::vector<std::string>{"org.n0/srv", "org.n1/srv", "org.n2/srv", "org.n3/srv",
                                        "org.n4/srv"});
  const json server = first["servers"][0];
  CHECK(server["_meta"]["io.modelcontextprotocol.registry/official"]["isLatest"] == true);
  CHECK(server["_meta"]["invalid.skillnode/provenance"]["source"] == "local");
  // The development API answers the same.
  CHECK(f.GetJson("/v0/servers?limit=2") == first);
  // A private server only with a token.
  CHECK(Names(f.GetJson("/v0.1/servers?search=secret", true)) ==
        std::vector<std::string>{"org.secret/srv"});
  CHECK(Names(f.GetJson("/v0.1/servers?search=secret")).empty());
}

TEST_CASE("a server's versions and a version by name or latest; 404 for an unknown one", "[unit]") {
  RegistryRoutesFixture f;
  const json versions = f.GetJson("/v0.1/servers/org.n3%2Fsrv/versions");
  CHECK(Names(versions) == std::vector<std::string>{"org.n3/srv"});
  const json latest = f.GetJson("/v0.1/servers/org.n3%2Fsrv/versions/latest");
  CHECK(latest["server"]["version"] == "1.0.0");
  CHECK(f.GetJson("/v0.1/servers/org.n3%2Fsrv/versions/1.0.0") == latest);
  CHECK(f.Get("/v0.1/servers/org.n3%2Fsrv/versions/2.0.0").status == 404);
  const auto missing = f.Get("/v0.1/servers/org.none%2Fsrv/versions");
  CHECK(missing.status == 404);
  CHECK(json::parse(missing.body)["error"] == "NOT_FOUND");
  CHECK(f.Get("/v0.1/servers/org.secret%2Fsrv/versions/latest").status == 404);
  CHECK(f.Get("/v0.1/servers/org.secret%2Fsrv/versions/latest", true).status == 200);
  // The bare server.json the AI Catalog points at.
  CHECK(f.GetJson("/mcp-registry/servers/org.n3%2Fsrv/server.json") == latest["server"]);
  CHECK(f.Get("/mcp-registry/servers/org.n3%2Fsrv/server.json?version=9.9.9").status == 404);
}

TEST_CASE("publishing is a 501 naming POST /api/skills; bad parameters are 400s", "[unit]") {
  RegistryRoutesFixture f;
  const auto publish = f.Get("/v0.1/publish", false, "POST");
  CHECK(publish.status == 501);
  const json body = json::parse(publish.body);
  CHECK(body["error"] == "NOT_IMPLEMENTED");
  CHECK(body["details"]["route"] == "POST /api/skills");
  CHECK(f.Get("/v0/publish", false, "POST").status == 501);
  const auto bad_cursor = f.Get("/v0.1/servers?cursor=nope");
  CHECK(bad_cursor.status == 400);
  CHECK(json::parse(bad_cursor.body)["details"]["field"] == "cursor");
  CHECK(f.Get("/v0.1/servers/org.n3%2Fsrv/versions?include_deleted=perhaps").status == 400);
}

}  // namespace
}  // namespace skillnode::node::formats::mcp_registry
