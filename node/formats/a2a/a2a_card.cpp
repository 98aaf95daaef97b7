// Agent Card building (a2a_card.h).
#include "node/formats/a2a/a2a_card.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <set>

#include "discovery/semver.h"
#include "node/formats/a2a/a2a_skill.h"

namespace skillnode::node::formats::a2a {
namespace {

using kademlia::store::SkillRecord;
using nlohmann::json;

json Interface(const std::string& url, const char* binding) {
  return {{"url", url}, {"protocolBinding", binding}, {"protocolVersion", kA2aProtocolVersion}};
}

bool HttpUrl(const std::string& endpoint) {
  const auto has_scheme = [&endpoint](std::string_view scheme) {
    return endpoint.size() > scheme.size() && endpoint.starts_with(scheme);
  };
  return has_scheme("http://") || has_scheme("https://");
}

// Members every card shares: A2A's required capabilities (nothing A2A-specific is spoken, so
// streaming and push notifications are false, said explicitly: an empty object would not
// survive the JS SDK's canonicalization) and JSON in and out.
void AddCommon(json& card) {
  card["capabilities"] = {{"streaming", false}, {"pushNotifications", false}};
  card["defaultInputModes"] = json::array({kJsonMediaType});
  card["defaultOutputModes"] = json::array({kJsonMediaType});
}

void AddSkills(json& card, const std::vector<SkillRecord>& records) {
  json skills = A2aSkillsJson(records);
  if (skills.size() > kCardSkillsMax) skills.erase(skills.begin() + kCardSkillsMax, skills.end());
  if (!skills.empty()) card["skills"] = std::move(skills);
}

std::string AgentDescription(std::string_view agent_id, const json& skills) {
  std::string names;
  for (size_t i = 0; i < skills.size() && i < kDescriptionNamesMax; ++i) {
    names += (i > 0 ? ", " : "") + skills[i]["name"].get<std::string>();
  }
  if (skills.size() > kDescriptionNamesMax) names += ", ...";
  return "Agent " + std::string(agent_id) + " in a skillnode network, with " +
         std::to_string(skills.size()) + (skills.size() == 1 ? " skill: " : " skills: ") + names +
         ".";
}

}  // namespace

json NodeInterfaces(const CardHost& host) {
  json out = json::array();
  if (host.mcp_enabled) out.push_back(Interface(host.base_url + "/mcp", kMcpBinding));
  out.push_back(Interface(host.base_url + "/api", kHttpApiBinding));
  return out;
}

json AgentInterfaces(const CardHost& host, const std::vector<SkillRecord>& records) {
  json out = json::array();
  std::set<std::string> seen;
  for (const SkillRecord& record : records) {
    if (seen.size() >= kCardEndpointsMax) break;
    if (!HttpUrl(record.endpoint) || !seen.insert(record.endpoint).second) continue;
    const bool mcp = record.skill_type == kademlia::store::kMcpServerSkillType;
    out.push_back(Interface(record.endpoint, mcp ? kMcpBinding : kInvokeBinding));
  }
  for (json& own : NodeInterfaces(host)) out.push_back(std::move(own));
  return out;
}

std::string HighestVersion(const std::vector<SkillRecord>& records) {
  assert(!records.empty());
  std::optional<discovery::SemVer> best;
  std::string best_text = records.front().version;
  for (const SkillRecord& record : records) {
    auto version = discovery::SemVer::Parse(record.version);
    if (!version) continue;
    if (!best || discovery::CompareSemVer(*version, *best) > 0) {
      best = std::move(*version);
      best_text = record.version;
    }
  }
  return best_text;
}

json NodeAgentCard(const NodeCardInfo& node, const CardHost& host,
                   const std::vector<SkillRecord>& records) {
  const std::string name = node.provider_name.empty()
                               ? "skillnode " + node.node_id_hex.substr(0, 16)
                               : node.provider_name;
  json card = {
      {"name", name}, {"supportedInterfaces", NodeInterfaces(host)}, {"version", node.version}};
  if (!node.provider_name.empty() && !node.provider_url.empty()) {
    card["provider"] = {{"organization", node.provider_name}, {"url", node.provider_url}};
  }
  AddCommon(card);
  AddSkills(card, records);
  const size_t skills = card.contains("skills") ? card["skills"].size() : 0;
  card["description"] = "A skillnode registry node (node id " + node.node_id_hex + ") with " +
                        std::to_string(skills) + (skills == 1 ? " skill" : " skills") +
                        " registered with it. Its MCP endpoint and HTTP API also find and run "
                        "the skills of every other node of its network.";
  return card;
}

json AgentCardOf(std::string_view agent_id, const CardHost& host,
                 const std::vector<SkillRecord>& records, const json& provider) {
  assert(!records.empty());
  json card = {{"name", std::string(agent_id)},
               {"supportedInterfaces", AgentInterfaces(host, records)},
               {"version", HighestVersion(records)}};
  if (provider.is_object()) card["provider"] = provider;
  AddCommon(card);
  AddSkills(card, records);
  card["description"] = AgentDescription(agent_id, card["skills"]);
  return card;
}

void AddDomainClaims(json& card, const json& claims) {
  if (!claims.is_array() || claims.empty()) return;
  card["capabilities"]["extensions"] = json::array(
      {{{"uri", kPublisherDomainsExtensionUri},
        {"description",
         "The DNS names this agent's skill publishers claim, each verified or not against the "
         "domain's /.well-known/skillnode-publisher by the node that served this card"},
        {"required", false},
        {"params", {{"publisherDomains", claims}}}}});
}

}  // namespace skillnode::node::formats::a2a
