// The Agent Skills well-known discovery index (the draft "Agent Skills Discovery via
// Well-Known URIs", v0.2.0 as merged: $schema instead of version, /.well-known/agent-skills/;
// docs/formats.md "Agent Skills index (draft)") of the records that name a SKILL.md.
//
//   {"$schema": kAgentSkillsSchemaUrl,
//    "skills": [{"name", "type": "skill-md", "description", "url", "digest": "sha256:<hex>"}]}
//
// An entry's name is the descriptor's name (a folder registration's front-matter name) when it
// follows the Agent Skills name rules, else the skill id when that does; a record with neither,
// or without a description, is left out. One entry per name: the best-ranked record
// (discovery::Rank: healthy first, then the highest version). `url` is this node's
// GET /api/skills/{skillId}/skill.md?agentId=A, which serves the exact bytes the record's
// skillMdSha256 names, from any node, verified; `digest` is that SHA-256.
//
// Only "skill-md" entries: the draft's archives are .tar.gz or .zip, and a node's folder
// archive (GET /api/skills/{id}/download) is an uncompressed tar, whose digest no gzip of it
// would keep. Pure functions; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_AGENT_SKILLS_INDEX_H_
#define SKILLNODE_NODE_FORMATS_AGENT_SKILLS_INDEX_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "node/formats/listed_record.h"

namespace skillnode::node::formats::catalogs {

inline constexpr std::string_view kAgentSkillsSchemaUrl =
    "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
inline constexpr std::string_view kAgentSkillsIndexPath = "/.well-known/agent-skills/index.json";
// The Agent Skills specification's name limit.
constexpr size_t kSkillNameLengthMax = 64;

// 1 to 64 of a-z, 0-9 and '-', not starting or ending with '-', no "--".
bool IsSkillName(std::string_view name);
// The name the index lists a record under, or nullopt when it has none (above).
std::optional<std::string> SkillNameOf(const kademlia::store::SkillRecord& record);

// "sha256:<64 lowercase hex>"
std::string DigestText(const std::array<uint8_t, 32>& sha256);
// `base` + "/api/skills/<skillId>/skill.md?agentId=<agentId>", both percent-encoded.
std::string SkillMdUrl(const std::string& base, const kademlia::store::SkillRecord& record);

// The records the index lists, one per name, in name order (pointers into `records`): live,
// naming a SKILL.md, with a name and a description.
std::vector<const ListedRecord*> IndexedSkills(const std::vector<ListedRecord>& records);
// One entry; `listed` must be one IndexedSkills chose (asserted).
nlohmann::json SkillIndexEntryJson(const ListedRecord& listed, const std::string& base);
// The whole index.
nlohmann::json SkillIndexJson(const std::vector<ListedRecord>& records, const std::string& base);

}  // namespace skillnode::node::formats::catalogs

#endif  // SKILLNODE_NODE_FORMATS_AGENT_SKILLS_INDEX_H_
