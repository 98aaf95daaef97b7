// SkillFolder: a SKILL.md folder checked and made canonical, what a registration from a folder
// publishes (docs/api.md "Skills from a SKILL.md folder").
//
// CheckFolder takes the folder's files (from ReadArchive on the node, from the disk in the CLI)
// and checks: SKILL.md at the top, its front matter (front_matter.h), every path (CheckPath), no
// path that is also another's directory, and the limits. It then makes the deterministic
// archive itself (WriteArchive), so the digests a record carries depend on the files alone,
// never on how a client packed them. SKILL.md's bytes are kept exactly as given.
//
// Pure: no file system, no clock.
#ifndef SKILLNODE_DISCOVERY_SKILLMD_SKILL_FOLDER_H_
#define SKILLNODE_DISCOVERY_SKILLMD_SKILL_FOLDER_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "discovery/skillmd/folder_error.h"
#include "discovery/skillmd/front_matter.h"
#include "discovery/skillmd/skill_archive.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::skillmd {

constexpr std::string_view kSkillMdPath = "SKILL.md";

struct SkillFolder {
  FrontMatter front_matter = {};
  std::string skill_md = {};  // SKILL.md's bytes, unchanged
  std::string archive = {};   // the deterministic archive of every file
  std::array<uint8_t, 32> skill_md_sha256{};
  std::array<uint8_t, 32> archive_sha256{};
};

[[nodiscard]] FolderResult<SkillFolder> CheckFolder(const std::vector<FolderFile>& files,
                                                    const FolderLimits& limits);

// Sets the descriptor's name and description (from the front matter) and its SKILL.md and
// archive digests and sizes.
void DescribeFolder(const SkillFolder& folder, kademlia::store::SkillDescriptor& descriptor);

std::array<uint8_t, 32> Sha256Of(std::string_view bytes);

}  // namespace skillnode::discovery::skillmd

#endif  // SKILLNODE_DISCOVERY_SKILLMD_SKILL_FOLDER_H_
