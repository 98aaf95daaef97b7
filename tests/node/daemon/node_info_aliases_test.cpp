// The renamed fields of GET /api/node: the table's names, the old names the node adds for a
// release, and the new names a client reads from a new node and from an older one.
#include "node/daemon/node_info_aliases.h"

#include <catch2/catch.hpp>
#include <regex>
#include <set>
#include <string>

namespace skillnode::node::daemon {
namespace {

TEST_CASE("the alias table maps each camelCase name to the one snake_case name it replaces",
          "[unit]") {
  const std::regex camel("[a-z][a-zA-Z0-9]*");
  const std::regex snake("[a-z][a-z0-9]*(_[a-z0-9]+)+");
  std::set<std::string> old_names;
  for (const NodeInfoAlias& alias : kNodeInfoAliases) {
    INFO(alias.object << " " << alias.name << " / " << alias.old_name);
    CHECK(std::regex_match(alias.name, camel));
    CHECK(std::regex_match(alias.old_name, snake));
    CHECK(old_names.insert(std::string(alias.object) + "." + alias.old_name).second);
    CHECK(IsOldNodeInfoName(alias.object, alias.old_name));
    CHECK_FALSE(IsOldNodeInfoName(alias.object, alias.name));
  }
  CHECK(IsOldNodeInfoName("lan.peers[]", "node_id"));
  CHECK_FALSE(IsOldNodeInfoName("", "node_id"));
}

TEST_CASE("the node copies renamed fields to their old names, in arrays and nested objects too",
          "[unit]") {
  nlohmann::json info = {
      {"networkId", 7},
      {"dht", {{"retryInSeconds", nullptr}, {"enabled", true}}},
      {"lan", {{"tableEntries", 2}, {"peers", {{{"nodeId", "aa"}}, {{"nodeId", "bb"}}}}}},
      {"ui", {{"cspReports", 1}, {"lastCspReport", {{"tooLarge", 5000}}}}}};
  AddOldNodeInfoNames(info);
  CHECK(info["network_id"] == 7);
  CHECK(info["networkId"] == 7);
  CHECK(info["dht"]["retry_in_s"].is_null());
  CHECK_FALSE(info["dht"].contains("bootstrap_phase"));  // absent fields stay absent
  CHECK(info["lan"]["table_entries"] == 2);
  CHECK(info["lan"]["peers"][0]["node_id"] == "aa");
  CHECK(info["lan"]["peers"][1]["node_id"] == "bb");
  CHECK(info["ui"]["csp_reports"] == 1);
  CHECK(info["ui"]["last_csp_report"]["too_large"] == 5000);
  CHECK(info["ui"]["last_csp_report"]["tooLarge"] == 5000);
  CHECK_FALSE(info.contains("invoke"));  // a part that is off adds no section
}

TEST_CASE("a client reads the new names from a node that sends both and from an older node",
          "[unit]") {
  nlohmann::json current = {{"networkId", 7},
                            {"lan", {{"peers", {{{"nodeId", "aa"}}}}}},
                            {"ui", {{"lastCspReport", {{"tooLarge", 9}}}}}};
  const nlohmann::json expected = current;
  AddOldNodeInfoNames(current);
  UseNewNodeInfoNames(current);
  CHECK(current == expected);

  nlohmann::json older = {{"network_id", 7},
                          {"lan", {{"peers", {{{"node_id", "aa"}}}}}},
                          {"ui", {{"last_csp_report", {{"too_large", 9}}}}}};
  UseNewNodeInfoNames(older);
  CHECK(older == expected);
}

}  // namespace
}  // namespace skillnode::node::daemon
