#include "node/importers/documents/ai_catalog_document.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

TEST_CASE("an AI catalog's entries are read with the kind each type names", "[unit]") {
  json catalog = {{"specVersion", "1.0"},
                  {"host", {{"displayName", "example"}, {"identifier", "did:web:example.org"}}},
                  {"entries",
                   {{{"identifier", "urn:air:example.org:a2a:planner"},
                     {"type", "application/a2a-agent-card+json"},
                     {"url", "https://example.org/.well-known/agent-card.json"}},
                    {{"identifier", "urn:air:example.org:skill:x"},
                     {"mediaType", "application/agent-skills+md"},
                     {"url", "https://example.org/x/SKILL.md"},
                     {"version", "1.0.0"}},
                    {{"identifier", "urn:air:example.org:catalog:more"},
                     {"type", "application/ai-catalog+json; charset=utf-8"},
                     {"url", "https://example.org/more.json"}},
                    {{"identifier", "urn:air:example.org:mcp:wx"},
                     {"type", "application/mcp-server+json"},
                     {"data", {{"name", "org.example/wx"}}}}}}};
  auto read = ReadAiCatalog(catalog.dump());
  REQUIRE(read);
  CHECK(read->spec_version == "1.0");
  CHECK(read->host_display_name == "example");
  REQUIRE(read->entries.size() == 4);
  CHECK(read->entries[0]->kind == CatalogEntryKind::kA2aCard);
  CHECK(read->entries[1]->kind == CatalogEntryKind::kSkillMd);
  CHECK(read->entries[1]->version == "1.0.0");
  CHECK(read->entries[2]->kind == CatalogEntryKind::kCatalog);
  CHECK(read->entries[3]->kind == CatalogEntryKind::kMcpServer);
  CHECK(read->entries[3]->url.empty());
  CHECK(read->entries[3]->data["name"] == "org.example/wx");
  CHECK(CatalogEntryKindName(CatalogEntryKind::kCatalog) == "ai-catalog");
}

TEST_CASE("a catalog entry needs an identifier, a type and exactly one of url and data", "[unit]") {
  json catalog = {{"specVersion", "1.2"},
                  {"entries",
                   {{{"type", "application/a2a-agent-card+json"}, {"url", "https://a"}},
                    {{"identifier", "x"}, {"url", "https://a"}},
                    {{"identifier", "x"}, {"type", "application/agent-skills+md"}},
                    {{"identifier", "x"},
                     {"type", "application/agent-skills+md"},
                     {"url", "https://a"},
                     {"data", "inline"}},
                    {{"identifier", "x"}, {"type", "text/html"}, {"url", "https://a"}}}}};
  auto read = ReadAiCatalog(catalog.dump());
  REQUIRE(read);
  REQUIRE(read->entries.size() == 5);
  CHECK(read->entries[0].error().message ==
        "entries[0].identifier: required, a non-empty "
        "string");
  CHECK(read->entries[1].error().message == "entries[1].type: required, a media type");
  CHECK(read->entries[2].error().message == "entries[2]: needs exactly one of url and data");
  CHECK(read->entries[3].error().message == "entries[3]: needs exactly one of url and data");
  CHECK(read->entries[4].error().code == transport::ErrorCode::kUnsupported);
}

TEST_CASE("a catalog of another major version or without entries is refused", "[unit]") {
  auto v2 = ReadAiCatalog(R"({"specVersion": "2.0", "entries": []})");
  REQUIRE_FALSE(v2);
  CHECK_THAT(v2.error().message, Catch::Contains("not a 1.x catalog"));
  auto none = ReadAiCatalog(R"({"specVersion": "1.0"})");
  REQUIRE_FALSE(none);
  CHECK(none.error().message == "entries: required, an array");
  CHECK(ReadAiCatalog(R"({"specVersion": "1.0", "entries": []})"));
}

}  // namespace
}  // namespace skillnode::node::importers::documents
