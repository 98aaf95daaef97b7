// The deterministic archive of a SKILL.md folder, and reading an uploaded one; both through
// libarchive (docs/dependencies.md), never hand-written tar code.
//
// WriteArchive makes a POSIX ustar archive in which the same files give the same bytes on any
// host: entries in byte order of their paths, regular files only (directories are implied by
// the paths), mtime 0, uid and gid 0, no user or group names, mode 0755 for a file with any
// executable bit and 0644 otherwise, no padding past the two end-of-archive blocks.
//
// ReadArchive reads an uploaded archive: a tar (ustar, pax or GNU), a gzip-compressed tar or a
// zip, told apart by libarchive from the bytes. Only libarchive's tar and zip formats and its
// gzip filter are enabled (never support_format_all or filter_all): bzip2, xz, zstd, 7z, rar,
// cpio and the rest are refused as "not a tar, tar.gz or zip archive", and a gzip stream must
// hold a tar. A gzip stream is unpacked first, through the gzip filter alone, to at most
// archive_bytes_max bytes (the bound on an uploaded tar): a gzip bomb is refused after reading
// about that much, and its expansion is never held whole. Every entry, of any of the three,
// has the same checks: anything a folder of plain files could not have made is refused
// (absolute paths, "..", links (a zip's are symlink modes in its external attributes),
// devices, FIFOs, sparse or over-long entries, encrypted entries, a path twice, and anything
// over FolderLimits, the files' sum checked before each file is unpacked). A leading "./" is
// dropped, and directory entries only have their paths checked. A file is executable when its
// mode has an executable bit; a zip made on a system without Unix modes gives none. No error
// leaves the library as an exception; libarchive's are returned as FolderErrors.
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
  // The archive as uploaded, as gunzipped and as remade; also bounds the sum of the files'
  // sizes.
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

// The files of an uploaded archive (tar, tar.gz or zip), sorted by path. Errors have file
// "archive".
[[nodiscard]] FolderResult<std::vector<FolderFile>> ReadArchive(std::string_view archive,
                                                                const FolderLimits& limits);

}  // namespace skillnode::discovery::skillmd

#endif  // SKILLNODE_DISCOVERY_SKILLMD_SKILL_ARCHIVE_H_
