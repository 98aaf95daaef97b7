// FolderError: why a SKILL.md folder was refused, naming the file, the line (for SKILL.md) and
// the field, as the API and the CLI show it: "SKILL.md line 3: description: must be a non-empty
// string", "archive: scripts/../x: a path may not hold '..'".
#ifndef SKILLNODE_DISCOVERY_SKILLMD_FOLDER_ERROR_H_
#define SKILLNODE_DISCOVERY_SKILLMD_FOLDER_ERROR_H_

#include <string>
#include <tl/expected.hpp>

namespace skillnode::discovery::skillmd {

struct FolderError {
  std::string file = {};   // "SKILL.md", "archive", or a path in the folder
  int line = 0;            // 1-based line of SKILL.md; 0 when not about a line
  std::string field = {};  // front matter key ("description"), "" when not about one
  std::string reason = {};
  // The message: "<file>[ line N]: [<field>: ]<reason>".
  std::string Message() const {
    std::string out = file;
    if (line > 0) out += " line " + std::to_string(line);
    out += ": ";
    if (!field.empty()) out += field + ": ";
    return out + reason;
  }
};

template <typename T>
using FolderResult = tl::expected<T, FolderError>;

}  // namespace skillnode::discovery::skillmd

#endif  // SKILLNODE_DISCOVERY_SKILLMD_FOLDER_ERROR_H_
