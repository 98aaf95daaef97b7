// CatalogFollower: the entries of an AI Catalog an import follows, and the ones it refuses.
#include "node/importers/catalog_follower.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace skillnode::node::importers {
namespace {

using nlohmann::json;

std::string Catalog() {
  return json{
      {"specVersion", "1.0"},
      {"entries",
       {{{"identifier", "urn:a"},
         {"type", "application/a2a-agent-card+json"},
         {"url", "/.well-known/agent-card.json"}},
        {{"identifier", "urn:s"},
         {"mediaType", "application/agent-skills+md"},
         {"url", "https://example.org/x/SKILL.md"}},
        {{"identifier", "urn:c"}, {"type", "application/ai-catalog+json"}, {"url", "more.json"}},
        {{"identifier", "urn:m"},
         {"type", "application/mcp-server+json"},
         {"data", {{"name", "org.example/wx"}}}}}}}
      .dump();
}

TEST_CASE("a catalog's cards, catalogs and MCP servers are followed, by URL or inline", "[unit]") {
  auto read = FollowCatalog(Catalog(), "https://example.org/cat/ai-catalog.json", "", 0, 4);
  REQUIRE(read);
  REQUIRE(read->follow.size() == 3);
  const CatalogFollowUp& card = read->follow[0];
  CHECK(card.kind == CatalogFollowUp::Kind::kDocument);
  CHECK(card.type == ImportType::kA2a);
  CHECK(card.label == "entries[0] (urn:a)");
  CHECK(card.depth == 1);
  CHECK(card.url == "https://example.org/.well-known/agent-card.json");
  CHECK_FALSE(card.bytes.has_value());
  const CatalogFollowUp& nested = read->follow[1];
  CHECK(nested.type == ImportType::kAiCatalog);
  CHECK(nested.url == "https://example.org/cat/more.json");
  const CatalogFollowUp& server = read->follow[2];
  CHECK(server.kind == CatalogFollowUp::Kind::kMcpServer);
  CHECK(server.url == "https://example.org/cat/ai-catalog.json");
  REQUIRE(server.bytes.has_value());
  CHECK(json::parse(*server.bytes)["name"] == "org.example/wx");
  REQUIRE(read->errors.size() == 1);
  CHECK(read->errors[0].entry == "entries[1] (urn:s)");
  CHECK_THAT(read->errors[0].error, Catch::Contains("Agent Skills index"));
}

TEST_CASE("a nested catalog past the depth bound is an entry error, under its place", "[unit]") {
  auto read = FollowCatalog(Catalog(), "https://example.org/more.json", "entries[2] (urn:c)", 4, 4);
  REQUIRE(read);
  CHECK(read->follow.size() == 2);  // the card and the server: no deeper catalog
  CHECK(read->follow[0].label == "entries[2] (urn:c): entries[0] (urn:a)");
  CHECK(read->follow[0].depth == 5);
  bool bounded = false;
  for (const EntryError& error : read->errors) {
    bounded |= error.entry == "entries[2] (urn:c): entries[2] (urn:c)" &&
               error.error.find("import.catalogDepthMax") != std::string::npos;
  }
  CHECK(bounded);
}

TEST_CASE("a catalog that does not read is refused whole", "[unit]") {
  CHECK_FALSE(FollowCatalog("{}", "https://example.org/c.json", "", 0, 4));
  CHECK_FALSE(FollowCatalog("not json", "https://example.org/c.json", "", 0, 4));
  CHECK(JoinedPlace("", "skills[0]") == "skills[0]");
  CHECK(JoinedPlace("entries[1]", "skills[0]") == "entries[1]: skills[0]");
}

}  // namespace
}  // namespace skillnode::node::importers
