// The JSON forms of a skill: the registration body a skill sends (POST /api/skills, the seed's
// SKILL_REGISTER fields), and the skill as the SkillCenter API answers it (spec §7.3, plus the
// provider, health and where the answer came from).
//
// Parsing never throws: malformed JSON, a missing or mistyped field, an unknown field or a value
// the seed's text format cannot carry is a FieldError that names the field and the reason.
#ifndef SKILLNODE_DISCOVERY_SKILL_JSON_H_
#define SKILLNODE_DISCOVERY_SKILL_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tl/expected.hpp>

#include "kademlia/skill_record.h"

namespace skillnode::discovery {

struct FieldError {
  std::string field;  // "capabilities[2]", "descriptor.tags", "" for the body as a whole
  std::string message;
};
template <typename T>
using Parsed = tl::expected<T, FieldError>;

// The JSON object of `text`, or a FieldError for malformed JSON or another JSON type.
[[nodiscard]] Parsed<nlohmann::json> ParseJsonObject(std::string_view text);

// A registration: agentId, skillId, version (semver), skillType, endpoint, capabilities (an
// array, or the seed's comma-separated string), optional scenes (likewise) and descriptor
// {name, description, capabilityType, access, tags, inputSchema, outputSchema, examples,
// skillMdSha256}. Checks the limits of kademlia::ValidateRecord as well.
[[nodiscard]] Parsed<kademlia::SkillRecord> RegistrationFromJson(const nlohmann::json& body);

// Where an answer came from (issue: results say which source answered).
enum class Source { kLocal, kLan, kDht, kSkillCenter, kCache };
std::string_view SourceName(Source source);

// The skill as the API shows it: the §7.3 keys (id, name, version, type, capabilities, scenes,
// endpoint) and agentId, status, description, tags, provider (the publishing node's id),
// updatedAt (ms), sequence, source.
nlohmann::json SkillJson(const kademlia::SkillRecord& record, Source source);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_SKILL_JSON_H_
