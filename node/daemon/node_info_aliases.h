// The renamed fields of GET /api/node (docs/daemon.md): one table, kNodeInfoAliases, for the
// daemon's own fields and the sections the other parts add, and the two ways it is used. The
// node emits each renamed field under its old name too for one release (AddOldNodeInfoNames);
// a client reads the new names from any node, this one or an older one, after
// UseNewNodeInfoNames. The next release stops sending the old names.
// Stateless; any thread.
#ifndef SKILLNODE_NODE_DAEMON_NODE_INFO_ALIASES_H_
#define SKILLNODE_NODE_DAEMON_NODE_INFO_ALIASES_H_

#include <array>
#include <nlohmann/json.hpp>
#include <string_view>

namespace skillnode::node::daemon {

// A renamed /api/node field, emitted under both names for one release. `object` is the path
// of the enclosing object: "" for the document itself, "dht" for a member, "lan.peers[]" for
// each element of an array, "ui.lastCspReport" for a nested object. The renamed fields of the
// sections other parts add (AddInfo) are listed here too, so that one table says what the next
// release drops. A field whose object is absent (a part that is off) is skipped. Nested
// renames come before their enclosing object's, so that its old-named copy has both names.
struct NodeInfoAlias {
  const char* object;
  const char* name;
  const char* old_name;
};
inline constexpr std::array<NodeInfoAlias, 29> kNodeInfoAliases = {{
    {"", "networkId", "network_id"},
    {"", "observedAddress", "observed_address"},
    {"", "uptimeSeconds", "uptime_s"},
    {"", "dataDir", "data_dir"},
    {"", "routingTable", "routing_table"},
    {"dht", "bootstrapPhase", "bootstrap_phase"},
    {"dht", "bootstrapPeers", "bootstrap_peers"},
    {"dht", "bootstrapAttempts", "bootstrap_attempts"},
    {"dht", "retryInSeconds", "retry_in_s"},
    {"dht", "lookupsActive", "lookups_active"},
    {"dht", "rpcsInFlight", "rpcs_in_flight"},
    {"registry", "watchedKeys", "watched_keys"},
    {"auth", "tokensFile", "tokens_file"},
    {"auth", "failureSources", "failure_sources"},
    {"invoke", "runningMax", "running_max"},
    {"invoke", "deadlineMaxMs", "deadline_max_ms"},
    {"mcp", "sessionsMax", "sessions_max"},
    {"mcp", "sessionIdleTimeoutMs", "session_idle_timeout_ms"},
    {"mcp", "bodyBytesMax", "body_bytes_max"},
    {"mcp", "sessionsEvicted", "sessions_evicted"},
    {"mcp", "sessionsExpired", "sessions_expired"},
    {"mcp", "refusedOrigin", "refused_origin"},
    {"ui", "cspReports", "csp_reports"},
    {"ui.lastCspReport", "tooLarge", "too_large"},
    {"ui", "lastCspReport", "last_csp_report"},
    {"lan", "tableEntries", "table_entries"},
    {"lan.peers[]", "nodeId", "node_id"},
    {"skillcenter", "failuresInARow", "failures_in_a_row"},
    {"skillcenter", "inFlight", "in_flight"},
}};

// Copies each renamed field that is present to its old name as well.
void AddOldNodeInfoNames(nlohmann::json& info);
// Gives each field its new name and drops the old one: a field only an older node sends under
// its old name is moved to the new name; a field sent under both names keeps the new one.
void UseNewNodeInfoNames(nlohmann::json& info);
// Whether `name` is the old name of a renamed field of the object at `object` (a path as in
// kNodeInfoAliases: "", "dht", "lan.peers[]").
bool IsOldNodeInfoName(std::string_view object, std::string_view name);

}  // namespace skillnode::node::daemon

#endif  // SKILLNODE_NODE_DAEMON_NODE_INFO_ALIASES_H_
