// ReadSkillDir: a folder's regular files, walked without following links.
#include "node/cli/skill_dir.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace skillnode::node::cli {
namespace {

namespace fs = std::filesystem;
using discovery::skillmd::FolderError;
using discovery::skillmd::FolderFile;
using discovery::skillmd::FolderResult;

tl::unexpected<FolderError> Bad(std::string file, std::string reason) {
  return tl::unexpected(FolderError{std::move(file), 0, "", std::move(reason)});
}

}  // namespace

FolderResult<std::vector<FolderFile>> ReadSkillDir(const std::string& directory,
                                                   const discovery::skillmd::FolderLimits& limits) {
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) return Bad(directory, "is not a directory");
  std::vector<FolderFile> files;
  size_t total_bytes = 0;
  fs::recursive_directory_iterator it(directory, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path relative = it->path().lexically_relative(directory);
    const std::string path = relative.generic_string();
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_symlink(status))
      return Bad(path, "symbolic links are not allowed in a skill folder");
    if (fs::is_directory(status)) continue;
    if (!fs::is_regular_file(status)) {
      return Bad(path, "only regular files and directories are allowed in a skill folder");
    }
    if (auto reason = discovery::skillmd::CheckPath(path)) return Bad(path, *reason);
    if (files.size() + 1 > limits.files_max) {
      return Bad("folder", "holds more than " + std::to_string(limits.files_max) + " files");
    }
    const uintmax_t size = it->file_size(ec);
    if (ec) break;
    const size_t max = path == "SKILL.md" ? limits.skill_md_bytes_max : limits.file_bytes_max;
    if (size > max) {
      return Bad(path, std::to_string(size) + " bytes, more than " + std::to_string(max));
    }
    total_bytes += size;
    if (total_bytes > limits.archive_bytes_max) {
      return Bad("folder",
                 "its files hold more than " + std::to_string(limits.archive_bytes_max) + " bytes");
    }
    std::ifstream in(it->path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) return Bad(path, "cannot be read");
    const bool executable = (status.permissions() & (fs::perms::owner_exec | fs::perms::group_exec |
                                                     fs::perms::others_exec)) != fs::perms::none;
    files.push_back(FolderFile{path, executable, std::move(bytes)});
  }
  if (ec) return Bad(directory, "cannot be read: " + ec.message());
  return files;
}

}  // namespace skillnode::node::cli
