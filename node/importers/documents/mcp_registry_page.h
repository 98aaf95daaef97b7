// McpRegistryPage: one page of an MCP Registry's server list as an import reads it (the
// registry's OpenAPI, /v0.1/servers: `servers[]` of {server, _meta}, `metadata.nextCursor`).
//
// The page must be an object with a `servers` array; each item is read on its own, and a bad
// item is that item's error (naming its index and field), never the page's, so one bad entry
// does not stop the rest. An item needs `server` with `name` (the registry's pattern:
// namespace "/" name, 3 to 200 characters), `version` and `description` (non-empty strings);
// its status comes from `_meta["io.modelcontextprotocol.registry/official"].status` ("active"
// when absent), with `publishedAt`, `updatedAt` and `isLatest` when given. The whole server
// object is kept for schema validation and for the record's source document.
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_DOCUMENTS_MCP_REGISTRY_PAGE_H_
#define SKILLNODE_NODE_IMPORTERS_DOCUMENTS_MCP_REGISTRY_PAGE_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers::documents {

// Items on one page (the registry serves at most 100); a longer page is refused.
constexpr size_t kMcpRegistryPageItemsMax = 500;
constexpr size_t kMcpRegistryJsonDepthMax = 32;
constexpr size_t kMcpServerNameLengthMax = 200;
inline constexpr std::string_view kMcpRegistryOfficialMeta =
    "io.modelcontextprotocol.registry/official";

enum class McpServerStatus { kActive, kDeprecated, kDeleted };
std::string_view McpServerStatusName(McpServerStatus status);  // "active", ...

struct McpRegistryEntry {
  nlohmann::json server;  // the server.json object as served
  std::string name;       // "io.github.alice/weather"
  std::string version;
  std::string description;
  McpServerStatus status = McpServerStatus::kActive;
  std::string published_at;  // RFC 3339 as given; empty when absent
  std::string updated_at;
  bool is_latest = false;
};

struct McpRegistryPage {
  std::vector<transport::Result<McpRegistryEntry>> entries;  // in page order
  std::string next_cursor;                                   // empty on the last page
};

// Whether `name` has the registry's form: [a-zA-Z0-9.-]+ "/" [a-zA-Z0-9._-]+, 3..200 chars.
bool IsMcpServerName(std::string_view name);

[[nodiscard]] transport::Result<McpRegistryPage> ReadMcpRegistryPage(std::string_view bytes);

// A bare server.json (as an AI Catalog carries one) read as a registry entry would be: the same
// checks, no registry metadata (status active, no dates, not marked latest).
[[nodiscard]] transport::Result<McpRegistryEntry> ReadMcpServer(std::string_view bytes);

}  // namespace skillnode::node::importers::documents

#endif  // SKILLNODE_NODE_IMPORTERS_DOCUMENTS_MCP_REGISTRY_PAGE_H_
