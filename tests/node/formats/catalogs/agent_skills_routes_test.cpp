// GET /.well-known/agent-skills/index.json (node/formats/catalogs/agent_skills_routes.h) on a lone
// node: the index of its Agent Skills with CORS and Cache-Control, HEAD through the router, private
// skills only with a token.
#include "node/formats/catalogs/agent_skills_routes.h"

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

TEST_CASE("the well-known index lists the node's Agent Skills, private ones with a token",
          "[unit]") {
  FormatsFixture f;
  AgentSkillsRoutes routes(
      f.router, f.records, f.auth, [&f] { return f.dht.now; },
      [] { return std::string("http://127.0.0.1:7070"); });
  f.Register(AgentSkillRecord("a.org", "pdf"));
  kademlia::store::SkillRecord secret = AgentSkillRecord("a.org", "hidden");
  secret.descriptor->access = "private";
  f.Register(secret);
  f.Register(McpServerRecord("a.org", "srv"));

  const auto answer = f.Get("/.well-known/agent-skills/index.json");
  CHECK(answer.status == 200);
  CHECK(answer.content_type == "application/json");
  CHECK(HeaderOf(answer, "Access-Control-Allow-Origin") == "*");
  CHECK(HeaderOf(answer, "Cache-Control") == "public, max-age=60");
  const json index = json::parse(answer.body);
  CHECK(index["$schema"] == "https://schemas.agentskills.io/discovery/0.2.0/schema.json");
  REQUIRE(index["skills"].size() == 1);
  CHECK(index["skills"][0]["url"] ==
        "http://node.example:7070/api/skills/pdf/skill.md?agentId=a.org");
  CHECK(f.GetJson("/.well-known/agent-skills/index.json", true)["skills"].size() == 2);
  CHECK(HeaderOf(f.Get("/.well-known/agent-skills/index.json", true), "Cache-Control") ==
        "private, no-store");
  // HEAD is answered by the same route (the server leaves the body out).
  CHECK(f.Get("/.well-known/agent-skills/index.json", false, "HEAD").status == 200);
}

}  // namespace
}  // namespace skillnode::node::formats::catalogs
