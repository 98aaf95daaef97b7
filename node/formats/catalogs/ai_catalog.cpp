#include "node/formats/catalogs/ai_catalog.h"

#include <set>

#include "kademlia/wire/encoding.h"
#include "node/formats/catalogs/agent_skills_index.h"
#include "node/formats/mcp_registry/server_listing.h"
#include "node/formats/rfc3339.h"
#include "node/http/http_message.h"

namespace skillnode::node::formats::catalogs {
namespace {

using nlohmann::json;

json Entry(std::string identifier, std::string_view type, std::string url) {
  return {{"identifier", std::move(identifier)},
          {"type", type},
          {"mediaType", type},
          {"url", std::move(url)}};
}

std::string RecordUrn(std::string_view kind, const kademlia::store::SkillRecord& record) {
  return "urn:skillnode:" + std::string(kind) + ":" + http::PercentEncode(record.agent_id) + ":" +
         http::PercentEncode(record.skill_id);
}

// What a record entry adds: when it changed, its tags and where it comes from.
void AddRecordFields(json& entry, const ListedRecord& listed, json provenance) {
  const kademlia::store::SkillRecord& record = listed.record;
  entry["updatedAt"] = Rfc3339Ms(record.timestamp_ms);
  if (record.descriptor && !record.descriptor->tags.empty()) {
    entry["tags"] = record.descriptor->tags;
  }
  provenance["publisherKey"] = kademlia::wire::HexEncode(record.publisher);
  provenance["source"] = RecordSourceName(listed.source);
  provenance["sequence"] = record.sequence;
  entry["extensions"] = {{std::string(kProvenanceExtensionKey), std::move(provenance)}};
}

}  // namespace

std::string AgentCardUrl(const std::string& base, std::string_view agent_id) {
  return base + "/a2a/agents/" + http::PercentEncode(agent_id) + "/agent-card.json";
}

std::string ServerJsonUrl(const std::string& base, std::string_view server_name) {
  return base + "/mcp-registry/servers/" + http::PercentEncode(server_name) + "/server.json";
}

json AiCatalogJson(const CatalogSources& sources) {
  const std::string& base = sources.base_url;
  json host = {{"displayName", sources.host.display_name}, {"identifier", sources.host.identifier}};
  if (!sources.host.documentation_url.empty()) {
    host["documentationUrl"] = sources.host.documentation_url;
  }
  json entries = json::array();
  entries.push_back(Entry("urn:skillnode:node:" + sources.node_id_hex, kA2aCardType,
                          base + "/.well-known/agent-card.json"));

  const mcp_registry::ServerListing servers(sources.mcp_servers);
  const std::vector<const ListedRecord*> skills = IndexedSkills(sources.agent_skills);
  std::set<std::string> agents(sources.agent_ids.begin(), sources.agent_ids.end());
  for (const mcp_registry::ServerEntry& server : servers.entries()) {
    if (server.is_latest) agents.insert(server.listed.record.agent_id);
  }
  for (const ListedRecord* skill : skills) agents.insert(skill->record.agent_id);
  for (const std::string& agent : agents) {
    entries.push_back(Entry("urn:skillnode:a2a:" + http::PercentEncode(agent), kA2aCardType,
                            AgentCardUrl(base, agent)));
  }
  for (const mcp_registry::ServerEntry& server : servers.entries()) {
    if (!server.is_latest) continue;
    json entry = Entry(RecordUrn("mcp", server.listed.record), kMcpServerType,
                       ServerJsonUrl(base, server.key.name));
    AddRecordFields(entry, server.listed, json::object());
    entries.push_back(std::move(entry));
  }
  for (const ListedRecord* skill : skills) {
    json entry =
        Entry(RecordUrn("skill", skill->record), kSkillMdType, SkillMdUrl(base, skill->record));
    AddRecordFields(entry, *skill,
                    {{"digest", DigestText(*skill->record.descriptor->skill_md_sha256)}});
    entries.push_back(std::move(entry));
  }
  return {{"specVersion", kAiCatalogSpecVersion},
          {"host", std::move(host)},
          {"entries", std::move(entries)}};
}

}  // namespace skillnode::node::formats::catalogs
