// The JSON forms of a skill: the registration body a skill sends (POST /api/skills, the seed's
// SKILL_REGISTER fields), and the skill as the SkillCenter API answers it (spec §7.3, plus the
// provider, health and where the answer came from).
//
// Parsing never throws: malformed JSON, a missing or mistyped field, an unknown field or a value
// the seed's text format cannot carry is a FieldError that names the field and the reason. A
// registration's descriptor is checked against the Skill Descriptor's JSON Schema
// (discovery/schema/descriptor_schema.h) and every violation is returned at once.
#ifndef SKILLNODE_DISCOVERY_SKILL_JSON_H_
#define SKILLNODE_DISCOVERY_SKILL_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "discovery/schema/json_schema.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery {

struct FieldError {
  std::string field;  // "capabilities[2]", "descriptor.tags", "" for the body as a whole
  std::string message;
  // The descriptor's JSON Schema violations, each with its JSON pointer into the descriptor
  // ("/tags/0"). With one, `field` names it ("descriptor.tags[0]") and `message` is its reason;
  // with several, `field` is "descriptor" and `message` is "3 schema violations: /tags/0: ...".
  std::vector<schema::SchemaViolation> violations = {};
};
template <typename T>
using Parsed = tl::expected<T, FieldError>;

// The JSON object of `text`, or a FieldError for malformed JSON or another JSON type.
[[nodiscard]] Parsed<nlohmann::json> ParseJsonObject(std::string_view text);

// A registration: agentId, skillId, version (semver), skillType, endpoint, capabilities (an
// array, or the seed's comma-separated string), optional scenes (likewise), optional access
// (public, restricted or private; absent means public) and optional descriptor {name,
// description, capabilityType, access, tags, inputSchema, outputSchema, examples,
// skillMdSha256}, which must be valid against the Skill Descriptor schema (name and description
// required; inputSchema and outputSchema valid schemas, kept as compact JSON text; examples
// strings or {name, input, description} objects: text ones go to the record's examples, and with
// an object among them every example goes, in order and as compact JSON, to examples_json). A
// top-level access is kept in the record's descriptor (made empty if there is none) and must
// agree with descriptor.access when both are given.
[[nodiscard]] Parsed<kademlia::store::SkillRecord> RegistrationFromJson(const nlohmann::json& body);

// Where an answer came from (issue: results say which source answered).
enum class Source { kLocal, kLan, kDht, kSkillCenter, kCache };
std::string_view SourceName(Source source);

// The skill as the API shows it: the §7.3 keys (id, name, version, type, capabilities, scenes,
// endpoint) and agentId, status, description, tags, provider (the publishing node's id),
// updatedAt (ms), sequence, source; and for a skill with a SKILL.md, skillMdSha256, plus
// skillMdSize, archiveSha256 and archiveSize when it was registered from a folder; examples
// (ExamplesJson) when it has any; origin (OriginJson) when it was imported.
nlohmann::json SkillJson(const kademlia::store::SkillRecord& record, Source source);

// A descriptor's examples in the form they were registered in: text examples as strings, and
// with an object among them each example as the JSON value it was (a text example stays a
// string). Empty array when there are none.
nlohmann::json ExamplesJson(const kademlia::store::SkillDescriptor& descriptor);

// An imported record's origin (kademlia/store/record/record_origin.h): {format ("a2a",
// "mcp-registry", "agent-skills"), sourceUrl, documentSha256 (hex), documentSize, signature
// ("unsigned" or "verified")}, plus publisherDomain and publisherDomainState ("verified" or
// "unverified": did the importer prove it) when the source had a domain, and for the MCP Registry
// status
// ("active" or "deprecated") and publishedAt and updatedAt when given.
nlohmann::json OriginJson(const kademlia::store::RecordOrigin& origin);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_SKILL_JSON_H_
