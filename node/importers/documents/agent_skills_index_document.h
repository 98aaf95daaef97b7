// AgentSkillsIndexDocument: an Agent Skills discovery index as an import reads it (the draft
// "Agent Skills Discovery via Well-Known URIs", v0.2.0: `skills[]` of {name, type, description,
// url, digest}; served at /.well-known/agent-skills/index.json, formerly /.well-known/skills/).
//
// The index must be an object with a `skills` array; `$schema` (or the older `version`) is
// kept. Each entry is read on its own and a bad one is that entry's error: it needs `name`
// (1 to 64 bytes; the SKILL.md's own rules are checked once its bytes are in), `description`,
// `url` (resolved later against the index's URL) and `digest` "sha256:" + 64 lowercase hex
// digits; `type` "skill-md" or "archive". An entry of another type is kUnsupported (the draft
// says to skip it), and one without a digest (the v0.1 `files` form) is refused: nothing is
// imported that cannot be checked against its digest.
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_DOCUMENTS_AGENT_SKILLS_INDEX_DOCUMENT_H_
#define SKILLNODE_NODE_IMPORTERS_DOCUMENTS_AGENT_SKILLS_INDEX_DOCUMENT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::importers::documents {

constexpr size_t kAgentSkillsIndexEntriesMax = 1000;
constexpr size_t kAgentSkillsIndexJsonDepthMax = 16;

enum class SkillArtifactType { kSkillMd, kArchive };
std::string_view SkillArtifactTypeName(SkillArtifactType type);  // "skill-md", "archive"

struct AgentSkillsIndexEntry {
  std::string name;
  SkillArtifactType type = SkillArtifactType::kSkillMd;
  std::string description;
  std::string url;  // as written: absolute, path-absolute or relative
  std::array<uint8_t, 32> digest{};
};

struct AgentSkillsIndexDocument {
  std::string schema;  // `$schema`, or "version " + `version` in older indexes; may be empty
  std::vector<transport::Result<AgentSkillsIndexEntry>> entries;  // in index order
};

// "sha256:" + 64 lowercase hex digits, as 32 bytes.
[[nodiscard]] transport::Result<std::array<uint8_t, 32>> ParseSha256Digest(std::string_view text);

[[nodiscard]] transport::Result<AgentSkillsIndexDocument> ReadAgentSkillsIndex(
    std::string_view bytes);

}  // namespace skillnode::node::importers::documents

#endif  // SKILLNODE_NODE_IMPORTERS_DOCUMENTS_AGENT_SKILLS_INDEX_DOCUMENT_H_
