// server.json and ServerResponse of an MCP server record
// (node/formats/mcp_registry/mcp_server_json.h): the name pattern, the 100-character cuts, remotes
// from http(s) endpoints only, and the two _meta objects.
#include "node/formats/mcp_registry/mcp_server_json.h"

#include <catch2/catch.hpp>

#include "support/records.h"

namespace skillnode::node::formats::mcp_registry {
namespace {

using kademlia::store::SkillRecord;
using nlohmann::json;

SkillRecord McpServer(const std::string& agent = "com.example", const std::string& skill = "wx") {
  SkillRecord r = testing::SampleRecord(agent, skill);
  r.skill_type = "mcp-server";
  r.version = "1.4.0";
  r.endpoint = "https://wx.example.com/mcp";
  kademlia::store::SkillDescriptor d;
  d.name = "Weather";
  d.description = "Weather forecasts over MCP";
  r.descriptor = d;
  return r;
}

TEST_CASE("a server name is agentId/skillId when the registry's pattern accepts it", "[unit]") {
  CHECK(ServerNameOf(McpServer()) == "com.example/wx");
  CHECK(ServerNameOf(McpServer("io.github.alice", "weather_v2.1")) ==
        "io.github.alice/weather_v2.1");
  // The namespace takes no '_', neither part a '/' or a space, and 200 characters at most.
  CHECK_FALSE(ServerNameOf(McpServer("com_example", "wx")).has_value());
  CHECK_FALSE(ServerNameOf(McpServer("com.example", "a/b")).has_value());
  CHECK_FALSE(ServerNameOf(McpServer("agent 1", "wx")).has_value());
  CHECK(ServerNameOf(McpServer(std::string(100, 'a'), std::string(99, 'b'))).has_value());
  CHECK_FALSE(ServerNameOf(McpServer(std::string(100, 'a'), std::string(100, 'b'))).has_value());
  CHECK(IsServerName("a/b"));
  CHECK_FALSE(IsServerName("/b"));
  CHECK_FALSE(IsServerName("a/"));
}

TEST_CASE("a text is cut to its first characters, not bytes, and ends with an ellipsis", "[unit]") {
  CHECK(CutToCharacters("short", 100) == "short");
  CHECK(CutToCharacters("abcdef", 6) == "abcdef");
  CHECK(CutToCharacters("abcdefg", 6) == "abcde\xE2\x80\xA6");
  // Two-, three- and four-byte characters are never split.
  CHECK(CutToCharacters("\xC3\xA9\xC3\xA9\xC3\xA9", 2) == "\xC3\xA9\xE2\x80\xA6");
  CHECK(CutToCharacters("\xE4\xB8\xAD\xE6\x96\x87\xF0\x9F\x98\x80", 3) ==
        "\xE4\xB8\xAD\xE6\x96\x87\xF0\x9F\x98\x80");
  CHECK(CutToCharacters("\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80", 2) ==
        "\xF0\x9F\x98\x80\xE2\x80\xA6");
}

TEST_CASE("server.json carries name, cut description, version, title and a streamable-http remote",
          "[unit]") {
  SkillRecord r = McpServer();
  r.descriptor->description = std::string(150, 'd');
  const json server = ServerJson(ListedRecord{.record = r});
  CHECK(server["$schema"] == kServerSchemaUrl);
  CHECK(server["name"] == "com.example/wx");
  CHECK(server["version"] == "1.4.0");
  CHECK(server["title"] == "Weather");
  CHECK(server["description"] == std::string(99, 'd') + "\xE2\x80\xA6");
  CHECK(server["remotes"] ==
        json::array({{{"type", "streamable-http"}, {"url", "https://wx.example.com/mcp"}}}));
  CHECK_FALSE(server.contains("packages"));
}

TEST_CASE("an endpoint that is not an http(s) URL gives no remote; no description is named",
          "[unit]") {
  for (const char* endpoint : {"192.168.1.100:8080", "ftp://x/y", "http://", "http:///x",
                               "https://x.example/{id}", "https://x.example/a b"}) {
    SkillRecord r = McpServer();
    r.endpoint = endpoint;
    INFO(endpoint);
    CHECK_FALSE(ServerJson(ListedRecord{.record = r}).contains("remotes"));
  }
  SkillRecord bare = McpServer();
  bare.descriptor.reset();
  const json server = ServerJson(ListedRecord{.record = bare});
  CHECK(server["description"] == "MCP server wx of agent com.example");
  CHECK_FALSE(server.contains("title"));
}

TEST_CASE("a server response carries the registry's status and this project's provenance",
          "[unit]") {
  SkillRecord r = McpServer();
  r.timestamp_ms = 1754572504280;
  const json live = ServerResponseJson(ListedRecord{.record = r}, true);
  const json& official = live["_meta"][std::string(kOfficialMetaKey)];
  CHECK(official == json{{"status", "active"},
                         {"publishedAt", "2025-08-07T13:15:04.280Z"},
                         {"updatedAt", "2025-08-07T13:15:04.280Z"},
                         {"isLatest", true}});
  CHECK(live["_meta"][std::string(kProvenanceMetaKey)]["source"] == "dht");
  CHECK(live["server"] == ServerJson(ListedRecord{.record = r}));

  r.tombstone = true;
  r.reason = kademlia::store::UnregisterReason::kShutdown;
  const json deleted = ServerResponseJson(ListedRecord{.record = r}, false);
  const json& gone = deleted["_meta"][std::string(kOfficialMetaKey)];
  CHECK(gone["status"] == "deleted");
  CHECK(gone["isLatest"] == false);
  CHECK(gone["statusMessage"] == "unregistered by its publisher (reason SHUTDOWN)");
  CHECK(gone["statusChangedAt"] == "2025-08-07T13:15:04.280Z");
}

}  // namespace
}  // namespace skillnode::node::formats::mcp_registry
