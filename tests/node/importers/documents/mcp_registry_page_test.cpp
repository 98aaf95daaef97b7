#include "node/importers/documents/mcp_registry_page.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

json Item(const std::string& name, const std::string& version, const std::string& status) {
  return {{"server",
           {{"$schema",
             "https://static.modelcontextprotocol.io/schemas/2025-12-11/"
             "server.schema.json"},
            {"name", name},
            {"version", version},
            {"description", "Weather forecasts"}}},
          {"_meta",
           {{"io.modelcontextprotocol.registry/official",
             {{"status", status},
              {"publishedAt", "2026-05-01T10:00:00Z"},
              {"updatedAt", "2026-05-02T10:00:00Z"},
              {"isLatest", true}}}}}};
}

TEST_CASE("registry names are namespace/name in the registry's characters", "[unit]") {
  CHECK(IsMcpServerName("io.github.alice/weather"));
  CHECK(IsMcpServerName("a/b_c.d-e"));
  CHECK_FALSE(IsMcpServerName("weather"));
  CHECK_FALSE(IsMcpServerName("/weather"));
  CHECK_FALSE(IsMcpServerName("io.github/"));
  CHECK_FALSE(IsMcpServerName("io_github/weather"));  // no '_' in the namespace
  CHECK_FALSE(IsMcpServerName("a/b/c"));
  CHECK_FALSE(IsMcpServerName("a/"));
  CHECK_FALSE(IsMcpServerName("io.x/" + std::string(200, 'w')));
}

TEST_CASE("a registry page gives each entry with its status, and the next cursor", "[unit]") {
  json page = {{"servers",
                {Item("io.github.alice/weather", "1.4.0", "active"),
                 Item("io.github.bob/old", "0.1.0", "deprecated"),
                 Item("io.github.eve/spam", "6.6.6", "deleted")}},
               {"metadata", {{"nextCursor", "io.github.eve/spam:6.6.6"}, {"count", 3}}}};
  auto read = ReadMcpRegistryPage(page.dump());
  REQUIRE(read);
  CHECK(read->next_cursor == "io.github.eve/spam:6.6.6");
  REQUIRE(read->entries.size() == 3);
  REQUIRE(read->entries[0]);
  CHECK(read->entries[0]->name == "io.github.alice/weather");
  CHECK(read->entries[0]->version == "1.4.0");
  CHECK(read->entries[0]->status == McpServerStatus::kActive);
  CHECK(read->entries[0]->updated_at == "2026-05-02T10:00:00Z");
  CHECK(read->entries[0]->is_latest);
  CHECK(read->entries[0]->server["description"] == "Weather forecasts");
  CHECK(read->entries[1]->status == McpServerStatus::kDeprecated);
  CHECK(read->entries[2]->status == McpServerStatus::kDeleted);
  CHECK(McpServerStatusName(McpServerStatus::kDeleted) == "deleted");
}

TEST_CASE("a bad registry entry is that entry's error and the rest are read", "[unit]") {
  json no_version = Item("io.github.alice/a", "1.0.0", "active");
  no_version["server"].erase("version");
  json bad_name = Item("weather", "1.0.0", "active");
  json bad_status = Item("io.github.alice/c", "1.0.0", "gone");
  json plain = {
      {"server",
       {{"name", "io.github.alice/d"}, {"version", "2"}, {"description", "no _meta at all"}}}};
  json page = {{"servers", {no_version, bad_name, bad_status, plain, 7}}};
  auto read = ReadMcpRegistryPage(page.dump());
  REQUIRE(read);
  REQUIRE(read->entries.size() == 5);
  REQUIRE_FALSE(read->entries[0]);
  CHECK(read->entries[0].error().message ==
        "servers[0].server.version: required, a non-empty "
        "string");
  REQUIRE_FALSE(read->entries[1]);
  CHECK_THAT(read->entries[1].error().message,
             Catch::StartsWith("servers[1].server.name: \"weather\" is not a registry name"));
  REQUIRE_FALSE(read->entries[2]);
  CHECK_THAT(read->entries[2].error().message, Catch::Contains("\"gone\" is not active"));
  REQUIRE(read->entries[3]);
  CHECK(read->entries[3]->status == McpServerStatus::kActive);  // no _meta: active
  CHECK(read->next_cursor.empty());
  REQUIRE_FALSE(read->entries[4]);
  CHECK(read->entries[4].error().message == "servers[4]: not an object");
}

TEST_CASE("a registry page that is not a server list is refused whole", "[unit]") {
  CHECK_FALSE(ReadMcpRegistryPage("<html>"));
  auto no_servers = ReadMcpRegistryPage(R"({"metadata": {}})");
  REQUIRE_FALSE(no_servers);
  CHECK(no_servers.error().message == "servers: required, an array");
  json huge = {{"servers", json::array()}};
  for (size_t i = 0; i <= kMcpRegistryPageItemsMax; ++i) huge["servers"].push_back(1);
  auto too_long = ReadMcpRegistryPage(huge.dump());
  REQUIRE_FALSE(too_long);
  CHECK(too_long.error().message == "servers: more than 500 items");
}

TEST_CASE("a bare server.json reads as an active registry entry with no dates", "[unit]") {
  auto entry = ReadMcpServer(
      R"({"name": "io.github.alice/weather", "version": "1.0.0", "description": "Weather",)"
      R"( "remotes": [{"type": "streamable-http", "url": "https://wx.example/mcp"}]})");
  REQUIRE(entry);
  CHECK(entry->name == "io.github.alice/weather");
  CHECK(entry->version == "1.0.0");
  CHECK(entry->status == McpServerStatus::kActive);
  CHECK(entry->published_at.empty());
  CHECK_FALSE(entry->is_latest);
  auto nameless = ReadMcpServer(R"({"version": "1.0.0", "description": "x"})");
  REQUIRE_FALSE(nameless);
  CHECK_THAT(nameless.error().message, Catch::Contains("name"));
  CHECK_FALSE(ReadMcpServer("[1, 2]"));
  CHECK_FALSE(ReadMcpServer("not json"));
}

}  // namespace
}  // namespace skillnode::node::importers::documents
