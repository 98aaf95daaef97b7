#include "node/importers/plans/mcp_plan.h"

#include <catch2/catch.hpp>

#include "tests/node/importers/plans/registry_checks.h"

namespace skillnode::node::importers::plans {
namespace {

using documents::McpRegistryEntry;
using documents::ReadMcpRegistryPage;
using nlohmann::json;
using testing::RequireRegistrable;

constexpr std::string_view kRegistry = "https://registry.example/";

json Server(const std::string& name = "io.github.Alice/weather",
            const std::string& version = "1.4.0") {
  return {
      {"$schema", "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"},
      {"name", name},
      {"version", version},
      {"description", "Weather forecasts over MCP"}};
}

json Official(const std::string& status, const std::string& published = "2026-05-01T10:00:00Z",
              const std::string& updated = "2026-05-02T10:00:00.5+02:00") {
  return {{"io.modelcontextprotocol.registry/official",
           {{"status", status},
            {"publishedAt", published},
            {"updatedAt", updated},
            {"isLatest", true}}}};
}

// The entry as an import reads it from a registry page holding only `server`.
McpRegistryEntry Entry(const json& server, const json& meta = Official("active")) {
  const json page = {{"servers", {{{"server", server}, {"_meta", meta}}}}};
  auto read = ReadMcpRegistryPage(page.dump());
  REQUIRE(read);
  REQUIRE(read->entries.size() == 1);
  REQUIRE(read->entries[0]);
  return *read->entries[0];
}

json Remote(const json& url) { return {{"type", "streamable-http"}, {"url", url}}; }

json Package(const json& type, const json& identifier) {
  return {{"registryType", type},
          {"identifier", identifier},
          {"version", "1.4.0"},
          {"transport", {{"type", "stdio"}}}};
}

TEST_CASE("an entry with remotes is planned with the first remote the record can hold", "[unit]") {
  json server = Server();
  server["title"] = "Weather, by Alice";
  server["remotes"] = {Remote("https://wx.example/mcp?a=1,2"), Remote("https://wx.example/mcp")};
  server["packages"] = {Package("npm", "@alice/weather-mcp")};
  const McpRegistryEntry entry = Entry(server);
  auto plan = PlanMcpServer(entry, kRegistry);
  REQUIRE(plan);
  RequireRegistrable(*plan);
  const auto& f = plan->fields;
  CHECK(plan->entry == "io.github.Alice/weather 1.4.0");
  CHECK(f.agent_id == "io.github.Alice");  // as it is: agentId/skillId is the name again
  CHECK(f.skill_id == "weather");
  CHECK(f.version == "1.4.0");
  CHECK(f.skill_type == kademlia::store::kMcpServerSkillType);
  CHECK(f.endpoint == "https://wx.example/mcp");  // the first one holds a ','
  CHECK(f.capabilities == std::vector<std::string>{"weather"});
  CHECK(f.descriptor->name == "Weather by Alice");
  CHECK(f.descriptor->description == "Weather forecasts over MCP");
  REQUIRE(f.origin);
  const auto& origin = *f.origin;
  CHECK(origin.format == kademlia::store::OriginFormat::kMcpRegistry);
  CHECK(origin.source_url ==
        "https://registry.example/v0.1/servers/io.github.Alice%2Fweather/versions/1.4.0");
  CHECK(origin.mcp_status == kademlia::store::McpStatus::kActive);
  CHECK(origin.published_at == "2026-05-01T10:00:00Z");
  CHECK(origin.updated_at == "2026-05-02T10:00:00.5+02:00");
  REQUIRE(plan->bytes.size() == 1);
  CHECK(*plan->bytes[0].second == server.dump());
  CHECK(origin.document_sha256 == discovery::skillmd::Sha256Of(server.dump()));
  CHECK(origin.document_size == server.dump().size());
}

TEST_CASE("an entry with only packages names the first as registryType:identifier", "[unit]") {
  json server = Server("io.github.alice/weather", "v2.0");
  server["packages"] = {Package("npm", "@alice/weather-mcp"), Package("pypi", "weather-mcp")};
  auto plan = PlanMcpServer(Entry(server, Official("deprecated")), kRegistry);
  REQUIRE(plan);
  RequireRegistrable(*plan);
  CHECK(plan->fields.endpoint == "npm:@alice/weather-mcp");
  CHECK(plan->fields.version == "2.0.0");
  CHECK(plan->fields.origin->mcp_status == kademlia::store::McpStatus::kDeprecated);
  // The registry's own URL names the version as the registry wrote it.
  CHECK(plan->fields.origin->source_url.ends_with("/versions/v2.0"));
  CHECK(plan->fields.descriptor->name == "io.github.alice/weather");
}

TEST_CASE("a deleted entry is refused, not planned", "[unit]") {
  json server = Server();
  server["remotes"] = {Remote("https://wx.example/mcp")};
  auto plan = PlanMcpServer(Entry(server, Official("deleted")), kRegistry);
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message == "io.github.Alice/weather 1.4.0: deleted on the registry");
}

TEST_CASE("dates that are not RFC 3339 are left out of the origin", "[unit]") {
  json server = Server();
  server["remotes"] = {Remote("https://wx.example/mcp")};
  auto plan = PlanMcpServer(Entry(server, Official("active", "yesterday", "2026-13-01T00:00:00Z")),
                            kRegistry);
  REQUIRE(plan);
  RequireRegistrable(*plan);
  CHECK(plan->fields.origin->published_at.empty());
  CHECK(plan->fields.origin->updated_at.empty());
}

TEST_CASE("a server object that breaks the registry's schema is refused, naming the pointers",
          "[unit]") {
  json server = Server();
  server["title"] = 42;
  server["remotes"] = {Remote(5), json("https://not-an-object.example"), Remote(nullptr)};
  server["packages"] = json::object();
  McpRegistryEntry entry = Entry(server);
  auto plan = PlanMcpServer(entry, kRegistry);
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message,
             Catch::StartsWith("io.github.Alice/weather 1.4.0: not a valid server.json (schema "
                               "2025-12-11): ") &&
                 Catch::Contains("/remotes/0/url") && Catch::Contains("more"));
  server["title"] = "Weather";
  server["remotes"] = {Remote("https://wx.example/mcp")};
  server["packages"] = {Package("npm", "@alice/weather-mcp")};
  server["packages"][0]["fileSha256"] = "ABC";  // 64 lower-case hex digits, per the schema
  plan = PlanMcpServer(Entry(server), kRegistry);
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Catch::Contains("/packages/0/fileSha256"));
  server["packages"][0]["fileSha256"] = std::string(64, 'a');
  entry = Entry(server);
  plan = PlanMcpServer(entry, kRegistry);
  REQUIRE(plan);
  RequireRegistrable(*plan);
  CHECK(plan->fields.descriptor->name == "Weather");
}

TEST_CASE("a version that is no semver is refused naming it", "[unit]") {
  json server = Server("io.github.alice/weather", "2024.05.01-final");
  server["remotes"] = {Remote("https://wx.example/mcp")};
  auto plan = PlanMcpServer(Entry(server), kRegistry);
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.starts_with(
      "io.github.alice/weather 2024.05.01-final: version '2024.05.01-final': is not a semantic "
      "version"));
}

TEST_CASE("a name part longer than an id may be is refused", "[unit]") {
  json server = Server("io.x/" + std::string(150, 'w'));
  server["remotes"] = {Remote("https://wx.example/mcp")};
  auto plan = PlanMcpServer(Entry(server), kRegistry);
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.find("each part of the name must be 1 to 128") != std::string::npos);
}

TEST_CASE("an entry whose origin the registry would refuse is refused with the reason", "[unit]") {
  json server = Server();
  server["remotes"] = {Remote("https://wx.example/mcp")};
  auto plan = PlanMcpServer(Entry(server), "https://registry example");
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.find("the registry would refuse it: ") != std::string::npos);
  CHECK(plan.error().message.find("sourceUrl") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::importers::plans
