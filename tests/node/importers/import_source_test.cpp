#include "node/importers/import_source.h"

#include <catch2/catch.hpp>

#include "node/importers/import_report.h"

namespace skillnode::node::importers {
namespace {

using nlohmann::json;

TEST_CASE("an import's type is named or told by the document's shape", "[unit]") {
  for (ImportType type : {ImportType::kA2a, ImportType::kMcpRegistry, ImportType::kAgentSkills,
                          ImportType::kAiCatalog}) {
    auto parsed = ParseImportType(ImportTypeName(type));
    REQUIRE(parsed);
    CHECK(*parsed == type);
  }
  auto teapot = ParseImportType("teapot");
  REQUIRE_FALSE(teapot);
  CHECK_THAT(teapot.error().message, Catch::Contains("a2a, mcp-registry, agent-skills"));

  CHECK(DetectImportType(json::parse(R"({"specVersion": "1.0", "entries": []})")) ==
        ImportType::kAiCatalog);
  CHECK(DetectImportType(json::parse(R"({"servers": [], "metadata": {}})")) ==
        ImportType::kMcpRegistry);
  CHECK(DetectImportType(json::parse(R"({"skills": [{"name": "a", "digest": "sha256:00"}]})")) ==
        ImportType::kAgentSkills);
  CHECK(DetectImportType(json::parse(
            R"({"$schema": "https://schemas.agentskills.io/discovery/0.2.0/schema.json",)"
            R"( "skills": []})")) == ImportType::kAgentSkills);
  CHECK(DetectImportType(json::parse(
            R"({"name": "Planner", "skills": [{"id": "p"}], "supportedInterfaces": []})")) ==
        ImportType::kA2a);
  CHECK(DetectImportType(json::parse(R"({"name": "x", "skills": [], "url": "https://a"})")) ==
        ImportType::kA2a);
  CHECK_FALSE(DetectImportType(json::parse(R"({"name": "x"})")));
  CHECK_FALSE(DetectImportType(json::parse(R"({"servers": {}})")));
  CHECK_FALSE(DetectImportType(json::parse("[1]")));
}

TEST_CASE("a site's URL leads to its well-known documents, a document's URL to itself", "[unit]") {
  CHECK(NamesSite("https://agent.example.org"));
  CHECK(NamesSite("https://agent.example.org/"));
  CHECK_FALSE(NamesSite("https://agent.example.org/card.json"));
  CHECK(SourceUrls("https://a.example/", ImportType::kA2a) ==
        std::vector<std::string>{"https://a.example/.well-known/agent-card.json",
                                 "https://a.example/.well-known/agent.json"});
  CHECK(SourceUrls("https://r.example", ImportType::kMcpRegistry) ==
        std::vector<std::string>{"https://r.example"});
  CHECK(SourceUrls("https://a.example/", std::nullopt) ==
        std::vector<std::string>{"https://a.example/.well-known/ai-catalog.json",
                                 "https://a.example/.well-known/agent-card.json",
                                 "https://a.example/.well-known/agent.json",
                                 "https://a.example/.well-known/agent-skills/index.json",
                                 "https://a.example/v0.1/servers?limit=1"});
  CHECK(SourceUrls("https://a.example/x/card.json", std::nullopt) ==
        std::vector<std::string>{"https://a.example/x/card.json"});
  CHECK(RegistryRootOf("https://r.example/v0.1/servers?limit=1") == "https://r.example");
  CHECK(RegistryRootOf("https://r.example/api/v0/servers") == "https://r.example/api");
  CHECK(RegistryRootOf("https://r.example/reg/") == "https://r.example/reg");
}

TEST_CASE("links inside a source resolve against its URL", "[unit]") {
  CHECK(ResolveUrl("https://a.example/skills/index.json", "pdf/SKILL.md") ==
        "https://a.example/skills/pdf/SKILL.md");
  CHECK(ResolveUrl("https://a.example/skills/index.json", "/keys.json") ==
        "https://a.example/keys.json");
  CHECK(ResolveUrl("https://a.example/x", "https://cdn.example/y") == "https://cdn.example/y");
  CHECK_FALSE(ResolveUrl("not a url", "/x"));
  CHECK(HostOf("https://Agent.Example.ORG:8443/x") == "agent.example.org");
  CHECK(HostOf("http://[::1]:8080/") == "::1");
  CHECK(HostOf("file:card.json").empty());
}

TEST_CASE("an import report lists what was imported, unpublished and refused", "[unit]") {
  ImportReport report;
  report.source = "https://a.example/";
  report.type = "a2a";
  report.documents = 2;
  report.imported.push_back({"skills[0] (p)", "planner-a.example", "p", "1.0.0", "registered"});
  report.unpublished.push_back({"com.example", "calc", "deleted on the registry"});
  report.errors.push_back({"skills[1] (q)", "no usable id"});
  const json out = report.ToJson();
  CHECK(out["imported"][0]["result"] == "registered");
  CHECK(out["unpublished"][0]["skillId"] == "calc");
  CHECK(out["errors"][0]["error"] == "no usable id");
  CHECK(out["documents"] == 2);
  CHECK_FALSE(out.contains("error"));
  CHECK_FALSE(out.contains("id"));
  report.id = "imp-0000abcd-1";
  CHECK(report.ToJson()["id"] == "imp-0000abcd-1");
  report.error = transport::Error{transport::ErrorCode::kTimeout, "too slow"};
  CHECK(report.ToJson()["error"] == "too slow");
}

TEST_CASE("a fetched document's type is told by its shape, or the URL is named", "[unit]") {
  CHECK(DocumentTypeOf(R"({"specVersion": "1.0", "entries": []})", "https://a.example/c") ==
        ImportType::kAiCatalog);
  CHECK(DocumentTypeOf(R"({"servers": []})", "https://a.example/s") == ImportType::kMcpRegistry);
  auto neither = DocumentTypeOf(R"({"hello": 1})", "https://a.example/x.json");
  REQUIRE_FALSE(neither);
  CHECK(neither.error().code == transport::ErrorCode::kInvalidArgument);
  CHECK(neither.error().message ==
        "https://a.example/x.json: not an A2A card, MCP Registry page, "
        "Agent Skills index or AI Catalog");
  auto broken = DocumentTypeOf("{not json", "https://a.example/y.json");
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error().message, Catch::Contains("https://a.example/y.json"));
}

}  // namespace
}  // namespace skillnode::node::importers
