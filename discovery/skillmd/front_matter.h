// The YAML front matter of a SKILL.md (the Agent Skills format): the text between a first line
// `---` and the next line `---`, read with the project's one YAML reader (discovery/yaml).
//
// Required: `name`, 1..kSkillNameLengthMax lowercase ASCII letters, digits and hyphens, not
// starting or ending with a hyphen and without "--"; `description`, a non-empty string of at
// most kademlia::kDescriptionLengthMax bytes (the signed record's limit; the Agent Skills
// format allows more, which this registry refuses with that reason). Optional keys are checked
// for their type only (`license`, `compatibility` and `allowed-tools` text, `metadata` a map);
// other keys are allowed. Nothing is taken from the file but name and description: the file
// itself is kept byte for byte.
//
// The whole file must be UTF-8; a UTF-8 byte order mark before the first `---` is allowed (and
// kept in the file). Line endings may be LF or CRLF. Every error names the line.
#ifndef SKILLNODE_DISCOVERY_SKILLMD_FRONT_MATTER_H_
#define SKILLNODE_DISCOVERY_SKILLMD_FRONT_MATTER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "discovery/skillmd/folder_error.h"

namespace skillnode::discovery::skillmd {

// The Agent Skills format's limits on name and compatibility.
constexpr size_t kSkillNameLengthMax = 64;
constexpr size_t kCompatibilityLengthMax = 500;
// The front matter block, delimiters included: ample for name, description and metadata; a
// larger one is refused before YAML sees it.
constexpr size_t kFrontMatterBytesMax = 16 * 1024;

struct FrontMatter {
  std::string name = {};
  std::string description = {};
};

// The front matter of `skill_md` (the file's exact bytes). Errors have file "SKILL.md".
[[nodiscard]] FolderResult<FrontMatter> ParseFrontMatter(std::string_view skill_md);

// The 1-based line of the first byte that is not UTF-8 (overlong forms, surrogates and code
// points past U+10FFFF included), or 0 when all of `text` is UTF-8.
int FirstNonUtf8Line(std::string_view text);

}  // namespace skillnode::discovery::skillmd

#endif  // SKILLNODE_DISCOVERY_SKILLMD_FRONT_MATTER_H_
