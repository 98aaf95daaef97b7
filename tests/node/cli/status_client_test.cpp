// `skillnode status`'s text: the same lines from a node that names /api/node's fields in
// camelCase (and sends the old names too for a release) as from an older node that sends only
// the old snake_case names.
#include "node/cli/status_client.h"

#include <catch2/catch.hpp>
#include <string>

#include "node/daemon/node_info_aliases.h"

namespace skillnode::node::cli {
namespace {

using Catch::Matchers::Contains;

const nlohmann::json kOlderNode = {
    {"id", "ab12"},
    {"version", "0.0.9"},
    {"network_id", 42},
    {"uptime_s", 3725},
    {"routing_table", {{"contacts", 5}, {"buckets", 2}, {"replacements", 0}}},
    {"dht", {{"bootstrap_phase", "joined"}, {"lookups_active", 0}}},
    {"listen", {"0.0.0.0:6881"}},
    {"addresses", {"10.0.0.2:6881"}},
    {"observed_address", "203.0.113.9:6881"},
    {"data_dir", "/var/lib/skillnode"},
    {"http", "http://127.0.0.1:7070"},
    {"https", nullptr},
    {"invoke", {{"running", 1}, {"running_max", 32}}}};

TEST_CASE("status prints the same lines for a node with camelCase names and for an older node",
          "[unit]") {
  nlohmann::json current = kOlderNode;
  daemon::UseNewNodeInfoNames(current);
  CHECK(current.contains("networkId"));
  const std::string from_older = FormatStatus("http://node:7070", kOlderNode);
  nlohmann::json both = current;
  daemon::AddOldNodeInfoNames(both);
  CHECK(FormatStatus("http://node:7070", current) == from_older);
  CHECK(FormatStatus("http://node:7070", both) == from_older);
  CHECK_THAT(from_older, Contains("(network 42)"));
  CHECK_THAT(from_older, Contains("joined: 5 contacts in 2 buckets"));
  CHECK_THAT(from_older, Contains("203.0.113.9:6881"));
  CHECK_THAT(from_older, Contains("/var/lib/skillnode"));
  CHECK_THAT(from_older, Contains(R"({"running":1,"runningMax":32})"));
  // The fields shown on their own lines are not repeated as sections, under either name.
  CHECK_THAT(from_older, !Contains("networkId") && !Contains("network_id"));
  CHECK_THAT(from_older, !Contains("routingTable") && !Contains("running_max"));
}

}  // namespace
}  // namespace skillnode::node::cli
