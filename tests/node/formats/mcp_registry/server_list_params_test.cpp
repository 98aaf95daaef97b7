// The MCP Registry API's query parameters (node/formats/mcp_registry/server_list_params.h):
// defaults, bounds, updated_since implying include_deleted, and a 400 naming each bad parameter.
#include "node/formats/mcp_registry/server_list_params.h"

#include <catch2/catch.hpp>

namespace skillnode::node::formats::mcp_registry {
namespace {

http::HttpRequest WithQuery(const std::string& query) {
  http::HttpRequest request;
  request.query = query;
  return request;
}

TEST_CASE("without parameters a listing is the first 30 live servers", "[unit]") {
  const auto params = ParseServerListParams(WithQuery(""));
  REQUIRE(params);
  CHECK(params->limit == 30);
  CHECK_FALSE(params->after.has_value());
  CHECK_FALSE(params->filter.include_deleted);
  CHECK(params->filter.search.empty());
  CHECK_FALSE(params->filter.version.has_value());
  // Empty values are no values (a first page sent as "cursor=").
  const auto empty = ParseServerListParams(WithQuery("cursor=&limit=&search=&updated_since="));
  REQUIRE(empty);
  CHECK(empty->limit == 30);
  CHECK_FALSE(empty->after.has_value());
}

TEST_CASE("every parameter is read, and updated_since includes deleted servers", "[unit]") {
  const std::string cursor = EncodeServerCursor({"a.b/c", "1.0.0"});
  const auto params = ParseServerListParams(
      WithQuery("cursor=" + cursor +
                "&limit=7&search=wea%20ther&version=latest&updated_since=2025-08-07T13:15:04Z"));
  REQUIRE(params);
  CHECK(params->after == ServerKey{"a.b/c", "1.0.0"});
  CHECK(params->limit == 7);
  CHECK(params->filter.search == "wea ther");
  CHECK(params->filter.version == "latest");
  CHECK(params->filter.updated_since_ms == 1754572504000);
  CHECK(params->filter.include_deleted);
  CHECK(ParseServerListParams(WithQuery("limit=1000"))->limit == 100);
  CHECK(ParseServerListParams(WithQuery("include_deleted=True"))->filter.include_deleted);
  CHECK_FALSE(ParseServerListParams(WithQuery("include_deleted=0"))->filter.include_deleted);
}

TEST_CASE("a bad parameter is refused naming it", "[unit]") {
  for (const auto& [query, field] : std::vector<std::pair<std::string, std::string>>{
           {"cursor=abc", "cursor"},
           {"limit=0", "limit"},
           {"limit=-1", "limit"},
           {"limit=ten", "limit"},
           {"limit=99999999999", "limit"},
           {"updated_since=yesterday", "updated_since"},
           {"include_deleted=maybe", "include_deleted"},
           {"search=" + std::string(257, 'x'), "search"},
           {"version=" + std::string(256, '1'), "version"}}) {
    INFO(query);
    const auto params = ParseServerListParams(WithQuery(query));
    REQUIRE_FALSE(params);
    CHECK(params.error().field == field);
    CHECK(params.error().message.starts_with(field + ": "));
  }
  const auto versions = ParseIncludeDeleted(WithQuery("include_deleted=yes"));
  REQUIRE_FALSE(versions);
  CHECK(versions.error().field == "include_deleted");
}

}  // namespace
}  // namespace skillnode::node::formats::mcp_registry
