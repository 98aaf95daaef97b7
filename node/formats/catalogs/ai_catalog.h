// The AI Catalog (specVersion "1.0", media type application/ai-catalog+json) of this node's
// view of the network (docs/formats.md "AI Catalog"): one entry per A2A Agent Card, MCP server
// and Agent Skill, each with the artifact's media type in both `type` (the specification's
// field) and `mediaType` (asked for by issue 46; consumers ignore fields they do not know).
//
//   the node's own card   urn:skillnode:node:<node id hex>          application/a2a-agent-card+json
//                         <base>/.well-known/agent-card.json
//   an agent's card       urn:skillnode:a2a:<agentId>               application/a2a-agent-card+json
//                         <base>/a2a/agents/<agentId>/agent-card.json
//   an MCP server         urn:skillnode:mcp:<agentId>:<skillId>     application/mcp-server+json
//                         <base>/mcp-registry/servers/<name>/server.json (its latest version)
//   an Agent Skill        urn:skillnode:skill:<agentId>:<skillId>   application/agent-skills+md
//                         the SKILL.md URL of the Agent Skills index (the same skills)
//
// Ids in identifiers and URLs are percent-encoded. Identifiers are not urn:air: the
// specification reserves those for an artifact's publisher or its delegate, and a node lists
// what other nodes published. The specification knows no type for a registry server.json, so
// MCP entries use application/mcp-server+json. MCP and skill entries carry `updatedAt`, `tags`
// (the descriptor's) and, under kProvenanceExtensionKey, {publisherKey, source, sequence} and
// for skills the SKILL.md's digest. Pure functions; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_AI_CATALOG_H_
#define SKILLNODE_NODE_FORMATS_AI_CATALOG_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "node/formats/listed_record.h"

namespace skillnode::node::formats::catalogs {

inline constexpr std::string_view kAiCatalogPath = "/.well-known/ai-catalog.json";
inline constexpr std::string_view kAiCatalogMediaType = "application/ai-catalog+json";
inline constexpr std::string_view kAiCatalogSpecVersion = "1.0";
inline constexpr std::string_view kA2aCardType = "application/a2a-agent-card+json";
inline constexpr std::string_view kMcpServerType = "application/mcp-server+json";
inline constexpr std::string_view kSkillMdType = "application/agent-skills+md";

struct CatalogHost {
  std::string display_name;
  std::string identifier;         // did:key of the node's key (did_key.h)
  std::string documentation_url;  // the provider's URL; empty: left out
};

struct CatalogSources {
  CatalogHost host;
  std::string base_url;     // this node's, as the request reached it
  std::string node_id_hex;  // for the node's own card
  // Agents of this node's registrations; the agents of the records below are added.
  std::vector<std::string> agent_ids;
  std::vector<ListedRecord> mcp_servers;
  std::vector<ListedRecord> agent_skills;
};

std::string AgentCardUrl(const std::string& base, std::string_view agent_id);
std::string ServerJsonUrl(const std::string& base, std::string_view server_name);

nlohmann::json AiCatalogJson(const CatalogSources& sources);

}  // namespace skillnode::node::formats::catalogs

#endif  // SKILLNODE_NODE_FORMATS_AI_CATALOG_H_
