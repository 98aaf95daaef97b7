// The A2A v1.0 Agent Cards a node serves (docs/formats.md "A2A Agent Cards"), built from skill
// records: the node's own card (the skills registered with it) and one card per agent (its
// records from the whole network). Pure: the routes (a2a_routes.h) gather the records and sign
// the card (a2a_card_signer.h).
//
// Every member is one the v1.0 AgentCard has (specification/a2a.proto) and none is an empty
// string, array or object, so that the A2A JS SDK's canonicalization, which drops those, signs
// the same bytes as RFC 8785 over the card as served.
//
// Interfaces. skillnode does not speak A2A's JSON-RPC, gRPC or HTTP+JSON bindings, and its cards
// never claim them; each `protocolBinding` is a URI naming what is really spoken there (A2A v1.0
// lets the binding be any string and asks custom ones to be URIs):
//   kMcpBinding      MCP's Streamable HTTP transport: the node's /mcp (list_skills,
//                    get_skill_info, run_skill over the whole network), or a record's endpoint
//                    when the record is an MCP server (skillType "mcp-server")
//   kInvokeBinding   skillnode's invocation protocol (docs/invocation.md): POST {"input"} to a
//                    record's http(s) endpoint
//   kHttpApiBinding  the node's own HTTP API (docs/api.md) under {base}/api
// `protocolVersion` is "1.0", the A2A version whose card describes the interface.
#ifndef SKILLNODE_NODE_FORMATS_A2A_CARD_H_
#define SKILLNODE_NODE_FORMATS_A2A_CARD_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/store/record/skill_record.h"

namespace skillnode::node::formats::a2a {

inline constexpr const char* kA2aProtocolVersion = "1.0";
inline constexpr const char* kMcpBinding =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http";
inline constexpr const char* kInvokeBinding = "urn:skillnode:binding:invoke:v1";
inline constexpr const char* kHttpApiBinding = "urn:skillnode:binding:http-api:v1";
// Every skill takes and gives JSON (its input and output schemas are JSON Schemas).
inline constexpr const char* kJsonMediaType = "application/json";

// Skills one card lists at most (the best ranked); a card stays a document a client reads at
// once (~300 bytes a skill).
constexpr size_t kCardSkillsMax = 256;
// Distinct record endpoints one agent card lists as interfaces at most.
constexpr size_t kCardEndpointsMax = 8;
// Skill names an agent card's generated description lists.
constexpr size_t kDescriptionNamesMax = 8;

// The serving node as the request reaches it.
struct CardHost {
  std::string base_url;     // "http://127.0.0.1:7070" (no trailing '/')
  bool mcp_enabled = true;  // node.mcp.enabled: /mcp is served
};

// Who the node is, for its own card.
struct NodeCardInfo {
  std::string node_id_hex;
  std::string provider_name;  // config provider.name; empty: none
  std::string provider_url;   // config provider.url; empty: none
  std::string version;        // skillnode's version
};

// The node's interfaces: /mcp (when enabled), then /api.
nlohmann::json NodeInterfaces(const CardHost& host);
// An agent's interfaces: the distinct http(s) endpoints of `records` in their order (at most
// kCardEndpointsMax; "host:port" endpoints name no URL and are left out), then the node's.
nlohmann::json AgentInterfaces(const CardHost& host,
                               const std::vector<kademlia::store::SkillRecord>& records);

// The highest version of `records` by semver precedence; the first record's version when none
// parses. `records` must not be empty.
std::string HighestVersion(const std::vector<kademlia::store::SkillRecord>& records);

// The node's own card: name provider.name (else "skillnode " and the node id's first 16 hex
// digits), version skillnode's, provider {organization, url} when both are configured, and
// `records` (the visible registrations) as skills; without any, `skills` is left out (an empty
// array would not survive the JS SDK's canonicalization).
nlohmann::json NodeAgentCard(const NodeCardInfo& node, const CardHost& host,
                             const std::vector<kademlia::store::SkillRecord>& records);

// The card of agent `agent_id` from its records, ranked best first (not empty): name the agent
// id, a description naming its skills, version HighestVersion, `provider` when given (an
// object; null: none).
nlohmann::json AgentCardOf(std::string_view agent_id, const CardHost& host,
                           const std::vector<kademlia::store::SkillRecord>& records,
                           const nlohmann::json& provider);

// The A2A extension (AgentCapabilities.extensions[], A2A v1.0) that carries the publisher
// domains a card's records claim, each with its state as the serving node checked it
// (docs/formats.md "Publisher domains"). The URI is under this project's reserved name.
inline constexpr std::string_view kPublisherDomainsExtensionUri =
    "https://skillnode.invalid/a2a/extensions/publisher-domains/v1";
// Adds the extension {uri, description, required: false, params: {publisherDomains: claims}}
// to `card`'s capabilities when `claims` is a non-empty array; else leaves the card as it is.
void AddDomainClaims(nlohmann::json& card, const nlohmann::json& claims);

}  // namespace skillnode::node::formats::a2a

#endif  // SKILLNODE_NODE_FORMATS_A2A_CARD_H_
