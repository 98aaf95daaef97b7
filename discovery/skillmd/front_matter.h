// The YAML front matter of a SKILL.md (the Agent Skills format): the text between a first line
// `---` and the next line `---`, read with the project's one YAML reader (discovery/yaml).
//
// The Agent Skills specification's rules (agentskills.io, and its reference validator
// skills-ref): `name`, 1..kSkillNameLengthMax lowercase ASCII letters, digits and hyphens, not
// starting or ending with a hyphen and without "--"; `description`, text that is not blank, of
// at most kDescriptionCharactersMax characters (Unicode code points, as the specification
// counts; the signed record carries it whole). Optional: `license` text; `compatibility` text of
// 1..kCompatibilityLengthMax characters; `metadata` a map of keys to text (YAML scalars, read as
// text as the reference parser does); `allowed-tools` text or a list of text. Keys the
// specification does not name are allowed, although its validator refuses them: clients define
// their own (Claude Code's `model`, `argument-hint`, ...), the file is served byte for byte and
// the registry reads only name and description (docs/api.md). Nothing else is taken from the
// file. Whether `name` equals the folder's name is the caller's to check where the folder has
// one (an upload is an archive with SKILL.md at its top, as the Agent Skills index's are).
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

// The Agent Skills format's limits on name, description and compatibility, in characters.
constexpr size_t kSkillNameLengthMax = 64;
constexpr size_t kDescriptionCharactersMax = 1024;
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

// Characters (Unicode code points) of `text`, which is UTF-8.
size_t CharacterCount(std::string_view text);

// The 1-based line of the first byte that is not UTF-8 (overlong forms, surrogates and code
// points past U+10FFFF included), or 0 when all of `text` is UTF-8.
int FirstNonUtf8Line(std::string_view text);

}  // namespace skillnode::discovery::skillmd

#endif  // SKILLNODE_DISCOVERY_SKILLMD_FRONT_MATTER_H_
