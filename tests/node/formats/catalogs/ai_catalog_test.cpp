// The AI Catalog document (node/formats/catalogs/ai_catalog.h): specVersion and host, the node's
// own card, one card per agent, one entry per MCP server (its latest version) and Agent Skill, each
// with type and mediaType, identifiers and URLs percent-encoded.
#include "node/formats/catalogs/ai_catalog.h"

#include <catch2/catch.hpp>

#include "node/formats/catalogs/agent_skills_index.h"
#include "tests/node/formats/formats_fixture.h"

namespace skillnode::node::formats::catalogs {
namespace {

using nlohmann::json;

CatalogSources Sources() {
  CatalogSources sources;
  sources.host = CatalogHost{"Example node", "did:key:z6Mkexample", ""};
  sources.base_url = "http://node.example:7070";
  sources.node_id_hex = "ab12";
  return sources;
}

TEST_CASE("an empty network's catalog holds the node's own card and its host", "[unit]") {
  const json catalog = AiCatalogJson(Sources());
  CHECK(catalog["specVersion"] == "1.0");
  CHECK(catalog["host"] ==
        json{{"displayName", "Example node"}, {"identifier", "did:key:z6Mkexample"}});
  CHECK(catalog["entries"] ==
        json::array({{{"identifier", "urn:skillnode:node:ab12"},
                      {"type", "application/a2a-agent-card+json"},
                      {"mediaType", "application/a2a-agent-card+json"},
                      {"url", "http://node.example:7070/.well-known/agent-card.json"}}}));
  CatalogSources with_docs = Sources();
  with_docs.host.documentation_url = "https://example.com/docs";
  CHECK(AiCatalogJson(with_docs)["host"]["documentationUrl"] == "https://example.com/docs");
}

TEST_CASE("agents, MCP servers and skills each get an entry with type and mediaType", "[unit]") {
  CatalogSources sources = Sources();
  sources.agent_ids = {"local agent"};
  kademlia::store::SkillRecord old_server = McpServerRecord("com.example", "wx", "1.0.0");
  old_server.publisher = testing::Publisher("old").public_key();
  kademlia::store::SkillRecord server = McpServerRecord("com.example", "wx", "2.0.0");
  server.timestamp_ms = 1754572504280;
  sources.mcp_servers = {ListedRecord{.record = old_server},
                         ListedRecord{.record = server, .source = RecordSource::kLocal}};
  sources.agent_skills = {ListedRecord{.record = AgentSkillRecord("org.skills", "pdf", 0x11)}};
  const json entries = AiCatalogJson(sources)["entries"];
  REQUIRE(entries.size() == 6);
  std::vector<std::string> identifiers;
  for (const json& e : entries) {
    identifiers.push_back(e["identifier"]);
    CHECK(e["type"] == e["mediaType"]);
    CHECK(e.contains("url"));
    CHECK_FALSE(e.contains("data"));
  }
  CHECK(identifiers ==
        std::vector<std::string>{"urn:skillnode:node:ab12", "urn:skillnode:a2a:com.example",
                                 "urn:skillnode:a2a:local%20agent", "urn:skillnode:a2a:org.skills",
                                 "urn:skillnode:mcp:com.example:wx",
                                 "urn:skillnode:skill:org.skills:pdf"});
  CHECK(entries[2]["url"] == "http://node.example:7070/a2a/agents/local%20agent/agent-card.json");
  const json& mcp = entries[4];
  CHECK(mcp["type"] == "application/mcp-server+json");
  CHECK(mcp["url"] == "http://node.example:7070/mcp-registry/servers/com.example%2Fwx/server.json");
  CHECK(mcp["updatedAt"] == "2025-08-07T13:15:04.280Z");
  CHECK(mcp["tags"] == json::array({"mcp"}));
  CHECK(mcp["extensions"]["invalid.skillnode.provenance"]["source"] == "local");
  const json& skill = entries[5];
  CHECK(skill["type"] == "application/agent-skills+md");
  CHECK(skill["url"] == "http://node.example:7070/api/skills/pdf/skill.md?agentId=org.skills");
  CHECK(skill["extensions"]["invalid.skillnode.provenance"]["digest"] ==
        DigestText(*sources.agent_skills[0].record.descriptor->skill_md_sha256));
}

}  // namespace
}  // namespace skillnode::node::formats::catalogs
