// Reading a SKILL.md folder from the disk for `skillnode register --skill-dir` (the node never
// reads the user's files: the CLI packs them and uploads the archive).
//
// Every regular file under the folder is taken with its bytes and executable bit; symbolic
// links, devices, FIFOs and sockets are refused (the archive could not carry them faithfully),
// as are paths CheckPath refuses and folders over the limits, checked while reading so a huge
// folder is not read whole. Hidden files are taken like any other.
#ifndef SKILLNODE_NODE_CLI_SKILL_DIR_H_
#define SKILLNODE_NODE_CLI_SKILL_DIR_H_

#include <string>
#include <vector>

#include "discovery/skillmd/skill_archive.h"

namespace skillnode::node::cli {

[[nodiscard]] discovery::skillmd::FolderResult<std::vector<discovery::skillmd::FolderFile>>
ReadSkillDir(const std::string& directory, const discovery::skillmd::FolderLimits& limits);

}  // namespace skillnode::node::cli

#endif  // SKILLNODE_NODE_CLI_SKILL_DIR_H_
