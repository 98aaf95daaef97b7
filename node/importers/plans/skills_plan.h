// The skill an Agent Skills index entry becomes (docs/formats.md "Importing"), once its artifact
// has been fetched. In this order, the first failure being the entry's error:
//
//   the artifact's SHA-256 must be the entry's digest, before anything else is looked at (the
//   error names both digests); the entry's name must be a skillId as it is (ImportId leaves it
//   unchanged; the error names it); the artifact must fit a record's origin document
//   (kOriginDocumentBytesMax); the index URL must have a host; a skill-md artifact is a folder
//   of one SKILL.md, an archive is read through the same checks as an uploaded folder (paths,
//   kinds, sizes: discovery/skillmd ReadArchive), and the folder is checked as
//   POST /api/skills/folder checks it (CheckFolder); the front matter's name must be the
//   entry's name (the error names both); and CheckRegistrable must accept the fields.
//
//   agentId    the index URL's host as an id; skillId the name; version "1.0.0" (an index
//              carries none); skillType "agent-skill"; endpoint the artifact's URL
//   capabilities  the name
//   descriptor from the front matter and the folder (name, description, SKILL.md and archive
//              digests and sizes), as a folder registration sets it (DescribeFolder)
//   origin     agent-skills, the index URL, the artifact's digest and size
//   bytes      SKILL.md, the folder's deterministic archive, and the artifact itself when it is
//              neither (an archive packed otherwise), so that every digest the record names,
//              the origin's included, is kept
#ifndef SKILLNODE_NODE_IMPORTERS_PLANS_SKILLS_PLAN_H_
#define SKILLNODE_NODE_IMPORTERS_PLANS_SKILLS_PLAN_H_

#include <string>
#include <string_view>

#include "discovery/skillmd/skill_archive.h"
#include "node/importers/documents/agent_skills_index_document.h"
#include "node/importers/plans/planned_skill.h"
#include "transport/result.h"

namespace skillnode::node::importers::plans {

inline constexpr std::string_view kAgentSkillType = "agent-skill";
inline constexpr std::string_view kAgentSkillVersion = "1.0.0";

struct SkillsProvenance {
  std::string index_url;
  std::string host;          // the index URL's host
  std::string artifact_url;  // the entry's URL resolved against the index URL
  // The publisher domain is not the plan's: the import proves it (source_domain_prover.h).
};

[[nodiscard]] transport::Result<PlannedSkill> PlanAgentSkill(
    const documents::AgentSkillsIndexEntry& entry, std::string_view artifact,
    const SkillsProvenance& provenance, const discovery::skillmd::FolderLimits& limits);

}  // namespace skillnode::node::importers::plans

#endif  // SKILLNODE_NODE_IMPORTERS_PLANS_SKILLS_PLAN_H_
