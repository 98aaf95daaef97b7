// The JSON documents of skill-sharing §5 (docs/api.md "The well-known skill index"): Skill
// Index entries (§5.2, also the answer of the registry query §5.4) and the full Skill
// Descriptor a descriptor_url serves (§5.3). Pure functions over kademlia::SkillRecord.
#ifndef SKILLNODE_NODE_API_SKILL_INDEX_H_
#define SKILLNODE_NODE_API_SKILL_INDEX_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kademlia/store/record/skill_record.h"
#include "node/http/http_message.h"

namespace skillnode::node::api {

// The Skill Index protocol version this node speaks (§5.2 `protocol.version`).
constexpr const char* kSkillIndexProtocolVersion = "1.0.0";
// Host headers longer than this are not used to build URLs.
constexpr size_t kHostLengthMax = 255;

// Who offers a skill: this node's provider section, or for another node's record its node id.
struct ProviderInfo {
  std::string name;
  std::string url;  // may be empty
  std::string node_id;
};

// "http://" + the request's Host header when it is a plain host[:port] (letters, digits, '.',
// '-', ':', '[' and ']'), else `fallback` (the node's own HTTP address).
std::string BaseUrl(const http::HttpRequest& request, const std::string& fallback);
// `base` + "/skills/" + the percent-encoded id + "/descriptor.json".
std::string DescriptorUrl(const std::string& base, std::string_view id);

// {id, name, capability_type, description, descriptor_url, access, version}.
nlohmann::json IndexEntryJson(const kademlia::store::SkillRecord& record,
                              const std::string& base_url);
// The full Skill Descriptor: id, name, description, version, capabilityType, access, agentId,
// skillId, skillType, endpoint, capabilities, scenes, tags, inputSchema and outputSchema
// (objects; left out when there are none), examples, skillMdSha256 (hex; left out when none),
// provider {name, url?, nodeId}, status.
nlohmann::json DescriptorJson(const kademlia::store::SkillRecord& record,
                              const ProviderInfo& provider);

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_SKILL_INDEX_H_
