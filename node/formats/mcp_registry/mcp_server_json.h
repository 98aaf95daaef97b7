// The MCP Registry's server.json (schema 2025-12-11) and ServerResponse of a skill record that
// is an MCP server (skillType "mcp-server"; docs/formats.md "MCP Registry API").
//
//   name         agentId + "/" + skillId, when that matches the registry's pattern
//                ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$ and is 3 to 200 characters; other records
//                have no server name and are not listed
//   description  the descriptor's description, cut to 100 characters (the last one then "…");
//                without one, "MCP server <skillId> of agent <agentId>" (also cut)
//   title        the descriptor's name, cut to 100 characters; left out when empty
//   version      the record's version
//   remotes      [{type "streamable-http", url: the endpoint}] when the endpoint is an http(s)
//                URL a URI template can hold; left out otherwise (host:port endpoints)
//   $schema      the 2025-12-11 schema's URL
//
// The response's _meta holds "io.modelcontextprotocol.registry/official" {status (active, or
// deleted for a tombstone, with statusMessage naming its reason), publishedAt and updatedAt
// (the record's timestamp: a record carries no first-publication time), isLatest} and, under
// kProvenanceMetaKey, ProvenanceJson. Pure functions; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_MCP_SERVER_JSON_H_
#define SKILLNODE_NODE_FORMATS_MCP_SERVER_JSON_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "kademlia/store/record/skill_record.h"
#include "node/formats/listed_record.h"

namespace skillnode::node::formats::mcp_registry {

inline constexpr std::string_view kServerSchemaUrl =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
inline constexpr std::string_view kOfficialMetaKey = "io.modelcontextprotocol.registry/official";
// The schema's limits.
constexpr size_t kServerNameLengthMin = 3;
constexpr size_t kServerNameLengthMax = 200;
constexpr size_t kServerDescriptionLengthMax = 100;
constexpr size_t kServerTitleLengthMax = 100;

// The registry's lifecycle status of a listed server.
enum class ServerStatus { kActive, kDeprecated, kDeleted };
std::string_view ServerStatusName(ServerStatus status);  // "active", "deprecated", "deleted"
ServerStatus ServerStatusOf(const kademlia::store::SkillRecord& record);

// Whether `name` is a server name the registry's schema accepts.
bool IsServerName(std::string_view name);
// agentId + "/" + skillId when IsServerName; else nullopt.
std::optional<std::string> ServerNameOf(const kademlia::store::SkillRecord& record);

// The first `max` characters (code points) of UTF-8 `text`; a longer text keeps `max` - 1 of
// them and ends with "…". A byte that does not start a UTF-8 sequence counts as one character.
std::string CutToCharacters(std::string_view text, size_t max);

// The server.json of a record with a server name (asserted).
nlohmann::json ServerJson(const ListedRecord& listed);
// {"server": ServerJson, "_meta": {...}} as above.
nlohmann::json ServerResponseJson(const ListedRecord& listed, bool is_latest);

}  // namespace skillnode::node::formats::mcp_registry

#endif  // SKILLNODE_NODE_FORMATS_MCP_SERVER_JSON_H_
