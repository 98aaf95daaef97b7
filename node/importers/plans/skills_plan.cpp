#include "node/importers/plans/skills_plan.h"

#include <memory>
#include <utility>
#include <vector>

#include "discovery/skillmd/skill_folder.h"
#include "kademlia/wire/encoding.h"

namespace skillnode::node::importers::plans {
namespace {

namespace skillmd = discovery::skillmd;

std::string Sha256Text(const std::array<uint8_t, 32>& digest) {
  return "sha256:" + kademlia::wire::HexEncode(digest);
}

// The folder the artifact holds: SKILL.md alone, or the files of an archive (read through the
// checks of an uploaded one), checked as POST /api/skills/folder checks a folder.
skillmd::FolderResult<skillmd::SkillFolder> FolderOf(documents::SkillArtifactType type,
                                                     std::string_view artifact,
                                                     const skillmd::FolderLimits& limits) {
  std::vector<skillmd::FolderFile> files;
  if (type == documents::SkillArtifactType::kSkillMd) {
    skillmd::FolderFile skill_md;
    skill_md.path = std::string(skillmd::kSkillMdPath);
    skill_md.bytes = std::string(artifact);
    files.push_back(std::move(skill_md));
  } else {
    auto read = skillmd::ReadArchive(artifact, limits);
    if (!read) return tl::unexpected(read.error());
    files = std::move(*read);
  }
  return skillmd::CheckFolder(files, limits);
}

kademlia::store::RecordOrigin OriginOf(const std::array<uint8_t, 32>& digest, size_t size,
                                       const SkillsProvenance& provenance) {
  kademlia::store::RecordOrigin origin;
  origin.format = kademlia::store::OriginFormat::kAgentSkills;
  origin.source_url = provenance.index_url;
  origin.document_sha256 = digest;
  origin.document_size = size;
  return origin;
}

}  // namespace

transport::Result<PlannedSkill> PlanAgentSkill(const documents::AgentSkillsIndexEntry& entry,
                                               std::string_view artifact,
                                               const SkillsProvenance& provenance,
                                               const discovery::skillmd::FolderLimits& limits) {
  const std::string where = entry.name + " (" + provenance.artifact_url + ")";
  auto fail = [&where](const std::string& reason) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument, where + ": " + reason);
  };
  const auto digest = skillmd::Sha256Of(artifact);
  if (digest != entry.digest) {
    return fail("the artifact's bytes hash to " + Sha256Text(digest) + ", the index says " +
                Sha256Text(entry.digest) + "; nothing of it is imported");
  }
  if (ImportId(entry.name, kademlia::store::kNameLengthMax) != entry.name) {
    return fail("the name \"" + entry.name +
                "\" is not a skillId this registry takes (lowercase letters, digits and '-')");
  }
  if (artifact.size() > kademlia::store::kOriginDocumentBytesMax) {
    return fail("the artifact is " + std::to_string(artifact.size()) +
                " bytes; an imported record's source document is at most " +
                std::to_string(kademlia::store::kOriginDocumentBytesMax));
  }
  PlannedSkill planned;
  planned.entry = where;
  auto& f = planned.fields;
  f.agent_id = ImportId(provenance.host, kademlia::store::kIdLengthMax);
  if (f.agent_id.empty()) return fail("the index URL has no host to make an agentId of");
  auto folder = FolderOf(entry.type, artifact, limits);
  if (!folder) return fail(folder.error().Message());
  if (folder->front_matter.name != entry.name) {
    return fail("SKILL.md names itself \"" + folder->front_matter.name + "\", the index \"" +
                entry.name + "\"");
  }
  f.skill_id = entry.name;
  f.version = std::string(kAgentSkillVersion);
  f.skill_type = std::string(kAgentSkillType);
  f.endpoint = provenance.artifact_url;
  f.capabilities = {entry.name};
  f.descriptor.emplace();
  skillmd::DescribeFolder(*folder, *f.descriptor);
  f.origin = OriginOf(digest, artifact.size(), provenance);
  if (auto ok = CheckRegistrable(f); !ok) {
    return fail("the registry would refuse it: " + ok.error().message);
  }
  const auto keep = [&planned](const std::array<uint8_t, 32>& sha256, std::string bytes) {
    planned.bytes.emplace_back(sha256, std::make_shared<const std::string>(std::move(bytes)));
  };
  const bool artifact_is_skill_md = digest == folder->skill_md_sha256;
  const bool artifact_is_archive = digest == folder->archive_sha256;
  keep(folder->skill_md_sha256, std::move(folder->skill_md));
  keep(folder->archive_sha256, std::move(folder->archive));
  if (!artifact_is_skill_md && !artifact_is_archive) keep(digest, std::string(artifact));
  return planned;
}

}  // namespace skillnode::node::importers::plans
