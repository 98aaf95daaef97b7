// The deterministic archive of a SKILL.md folder, and reading an uploaded one; both through
// libarchive (docs/dependencies.md), never hand-written tar code.
//
// WriteArchive makes a POSIX ustar archive in which the same files give the same bytes on any
// host: entries in byte order of their paths, regular files only (directories are implied by
// the paths), mtime 0, uid and gid 0, no user or group names, mode 0755 for a file with any
// executable bit and 0644 otherwise, no padding past the two end-of-archive blocks.
//
// ReadArchive reads an uploaded tar (ustar, pax or GNU; uncompressed) and refuses anything a
// folder of plain files could not have made: absolute paths, "..", links, devices, FIFOs,
// sparse or over-long entries, a path twice, and anything over FolderLimits. A leading "./"
// is dropped, and directory entries only have their paths checked. No error leaves the
// library as an exception; libarchive's are returned as FolderErrors.
//
// Pure: works on bytes in memory, no file system. Not thread-safe per call (none shared).
#ifndef SKILLNODE_DISCOVERY_SKILLMD_SKILL_ARCHIVE_H_
#define SKILLNODE_DISCOVERY_SKILLMD_SKILL_ARCHIVE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/skillmd/folder_error.h"

namespace skillnode::discovery::skillmd {

// A folder's limits. The defaults are the node's: SKILL.md up to 512 KiB (the issue asks for
// at least 256 KiB), a few hundred files, an archive a skill's scripts and references fit in.
constexpr size_t kSkillMdBytesMaxDefault = 512 * 1024;
constexpr size_t kFolderFilesMaxDefault = 256;
constexpr size_t kFolderFileBytesMaxDefault = 4 * 1024 * 1024;
constexpr size_t kFolderArchiveBytesMaxDefault = 8 * 1024 * 1024;
// A path inside the folder: what a ustar header holds (155-byte prefix + 100-byte name), and a
// depth no skill needs more of.
constexpr size_t kFolderPathBytesMax = 255;
constexpr size_t kFolderPathDepthMax = 16;
// Entries (directories included) an uploaded archive may hold before it is refused unread.
constexpr size_t kArchiveEntriesMax = 2 * kFolderFilesMaxDefault;

struct FolderLimits {
  size_t skill_md_bytes_max = kSkillMdBytesMaxDefault;
  size_t files_max = kFolderFilesMaxDefault;
  size_t file_bytes_max = kFolderFileBytesMaxDefault;
  // The archive as uploaded and as remade; also bounds the sum of the files' sizes.
  size_t archive_bytes_max = kFolderArchiveBytesMaxDefault;
};

struct FolderFile {
  std::string path = {};  // relative, '/'-separated, as CheckPath accepts it
  bool executable = false;
  std::string bytes = {};
  bool operator==(const FolderFile&) const = default;
};

// Why `path` may not name a file in a folder, or nullopt when it may: it must be relative,
// without empty, "." or ".." components, at most kFolderPathBytesMax bytes and
// kFolderPathDepthMax components, of printable ASCII other than '\' (portable to every file
// system and free of tar's character-set conversions).
std::optional<std::string> CheckPath(std::string_view path);

// The deterministic archive of `files` (any order; their paths must pass CheckPath and be
// distinct). Errors only when libarchive refuses (a path ustar cannot hold).
[[nodiscard]] FolderResult<std::string> WriteArchive(std::vector<FolderFile> files);

// The files of an uploaded archive, sorted by path. Errors have file "archive".
[[nodiscard]] FolderResult<std::vector<FolderFile>> ReadArchive(std::string_view tar,
                                                                const FolderLimits& limits);

}  // namespace skillnode::discovery::skillmd

#endif  // SKILLNODE_DISCOVERY_SKILLMD_SKILL_ARCHIVE_H_
