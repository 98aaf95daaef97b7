// The skill an MCP Registry entry becomes (docs/formats.md "Importing"):
//
//   agentId    the name's namespace as it is ("io.github.alice")
//   skillId    the name's second part as it is ("weather"), so that agentId + "/" + skillId is
//              the server's name again, as the node's /v0.1/servers serves it back; a part
//              longer than kIdLengthMax is refused
//   version    the entry's version as ImportVersion maps it ("v1.2" is "1.2.0"); a version it
//              cannot map is refused, naming it
//   skillType  "mcp-server" (so it is listed under the format key and served back by every
//              node's /v0.1/servers)
//   endpoint   the first remote's URL the record can hold (at most kEndpointLengthMax bytes,
//              no ';', ',', '|', spaces or control characters), else the first such package
//              as "registryType:identifier" ("npm:@alice/weather-mcp": record validation
//              takes it as it is; it names what to run, there being no URL to call); an entry
//              with neither is refused
//   capabilities  the skillId as an id
//   descriptor name (the title when it is a string, else the name; FitText), description
//              (FitDescription)
//   origin     mcp-registry, the entry's URL on the registry, the SHA-256 and size of the server
//              object's bytes as served back (kept as a blob), the status (active or
//              deprecated) and the registry's publishedAt and updatedAt, each only when it is an
//              RFC 3339 date-time (kademlia::store::IsRfc3339DateTime), else left empty
//
// An entry whose server object breaks the registry's server.json schema (2025-12-11,
// discovery/schema/mcp_server_schema.h: names, versions, URLs, a package's fileSha256 as 64 hex
// digits) is refused, naming the first violations by JSON pointer.
// A deleted entry is not planned (an error saying so): the importer unpublishes what it
// published for that name. One version per server is kept per node (skillnode's identity is
// agentId and skillId): of several versions of one name, the one the registry marks latest,
// else the highest semver; that choice is the caller's. Any JSON in `server` is read without
// throwing (a title or URL that is not a string is passed over).
#ifndef SKILLNODE_NODE_IMPORTERS_PLANS_MCP_PLAN_H_
#define SKILLNODE_NODE_IMPORTERS_PLANS_MCP_PLAN_H_

#include <string>
#include <string_view>
#include <utility>

#include "node/importers/documents/mcp_registry_page.h"
#include "node/importers/plans/planned_skill.h"
#include "transport/result.h"

namespace skillnode::node::importers::plans {

// `registry_url`: the registry's root, as configured or given to `skillnode import`.
// The (agentId, skillId) a server name maps to: its namespace and the rest, as written; both
// empty for a name without '/'. What PlanMcpServer registers, and what a deleted name unpublishes.
std::pair<std::string, std::string> McpServerIds(std::string_view name);

[[nodiscard]] transport::Result<PlannedSkill> PlanMcpServer(
    const documents::McpRegistryEntry& entry, std::string_view registry_url);

}  // namespace skillnode::node::importers::plans

#endif  // SKILLNODE_NODE_IMPORTERS_PLANS_MCP_PLAN_H_
