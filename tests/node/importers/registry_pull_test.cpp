// RegistryPull: an import's pull of an MCP Registry, from its pages to what it plans, unpublishes
// and reports.
#include "node/importers/registry_pull.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace skillnode::node::importers {
namespace {

using nlohmann::json;

constexpr const char* kOfficial = "io.modelcontextprotocol.registry/official";

json Entry(const std::string& name, const std::string& version, const std::string& status,
           bool latest) {
  return {{"server",
           {{"name", name},
            {"description", "The " + name + " server"},
            {"version", version},
            {"remotes", {{{"type", "streamable-http"}, {"url", "https://mcp.example.org/mcp"}}}}}},
          {"_meta", {{kOfficial, {{"status", status}, {"isLatest", latest}}}}}};
}

std::string Page(const json& servers, const std::string& next_cursor) {
  json page = {{"servers", servers}, {"metadata", {{"count", servers.size()}}}};
  if (!next_cursor.empty()) page["metadata"]["nextCursor"] = next_cursor;
  return page.dump();
}

TEST_CASE("a pull reads every page, plans the latest versions and unpublishes deleted ones",
          "[unit]") {
  RegistryPull pull("https://registry.example.org", "2026-11-29T05:00:00Z", {});
  const std::string first = *pull.NextPageUrl();
  CHECK_THAT(first, Catch::StartsWith("https://registry.example.org/v0.1/servers?") &&
                        Catch::Contains("updated_since=2026-11-29T05%3A00%3A00Z"));
  pull.Take(Page({Entry("io.github.alice/weather", "1.0.0", "active", false),
                  Entry("io.github.alice/weather", "1.1.0", "active", true)},
                 "page-2"),
            first);
  const std::string second = *pull.NextPageUrl();
  CHECK_THAT(second, Catch::Contains("cursor=page-2"));
  pull.Take(Page({Entry("com.example/calc", "2.0.0", "deleted", true), json{{"server", 7}}}, ""),
            second);
  CHECK_FALSE(pull.NextPageUrl().has_value());
  const RegistryPullOutcome out = pull.Finish(true);
  CHECK_FALSE(out.source_error.has_value());
  CHECK(out.complete);
  REQUIRE(out.servers.size() == 1);
  CHECK(out.servers[0].name == "io.github.alice/weather");
  CHECK(out.servers[0].version == "1.1.0");
  REQUIRE(out.deleted.size() == 1);
  CHECK(out.deleted[0] == std::pair<std::string, std::string>{"com.example", "calc"});
  REQUIRE(out.errors.size() == 1);  // the entry that did not read
  CHECK_THAT(out.errors[0], Catch::StartsWith("page 2: servers[1]"));
}

TEST_CASE("a source whose first page does not read fails the import; a later page stops the pull",
          "[unit]") {
  RegistryPull nothing("https://registry.example.org", std::nullopt, {});
  nothing.Take("<html>not a registry</html>", "https://registry.example.org/v0.1/servers");
  const RegistryPullOutcome failed = nothing.Finish(true);
  REQUIRE(failed.source_error.has_value());
  CHECK_THAT(failed.source_error->message,
             Catch::StartsWith("https://registry.example.org/v0.1/servers: "));
  CHECK_FALSE(failed.complete);
  // The same pull named by a catalog is that entry's error, not the import's.
  CHECK_FALSE(nothing.Finish(false).source_error.has_value());
  CHECK(nothing.Finish(false).errors.size() == 1);

  RegistryPull partial("https://registry.example.org", std::nullopt, {});
  partial.Take(Page(json::array({Entry("org.a/x", "1.0.0", "active", true)}), "next"), "page 1");
  REQUIRE(partial.NextPageUrl().has_value());  // page 1 was read
  partial.Stop("page 2: connection refused");
  const RegistryPullOutcome kept = partial.Finish(true);
  CHECK_FALSE(kept.source_error.has_value());
  CHECK_FALSE(kept.complete);  // the next pull must be whole again
  REQUIRE(kept.errors.size() == 1);
  CHECK(kept.errors[0] == "the pull stopped: page 2: connection refused");
  REQUIRE(kept.servers.size() == 1);  // what came before the stop is kept
  CHECK(kept.servers[0].name == "org.a/x");
}

}  // namespace
}  // namespace skillnode::node::importers
