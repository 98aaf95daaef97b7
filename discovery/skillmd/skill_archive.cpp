// The deterministic folder archive and the reading of uploaded ones (tar, tar.gz, zip), on
// libarchive.
#include "discovery/skillmd/skill_archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cassert>
#include <memory>
#include <set>

namespace skillnode::discovery::skillmd {
namespace {

constexpr std::string_view kArchiveFile = "archive";
// libarchive's ustar header block; an archive ends with two zero blocks.
constexpr int kTarBlockBytes = 512;
constexpr mode_t kModeExecutable = 0755;
constexpr mode_t kModeRegular = 0644;
// How much of a gzip expansion is asked for at a time.
constexpr size_t kGunzipChunkBytes = 64 * 1024;
constexpr std::string_view kNotAnArchive = "is not a tar, tar.gz or zip archive";
constexpr std::string_view kNotATarInGzip =
    "is gzip-compressed but holds no tar (a tar, tar.gz or zip archive is accepted)";

tl::unexpected<FolderError> Bad(std::string reason) {
  return tl::unexpected(FolderError{std::string(kArchiveFile), 0, "", std::move(reason)});
}

struct ReadDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};
struct WriteDeleter {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryDeleter {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

std::string LibraryError(archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "libarchive failed";
}

la_ssize_t AppendBytes(archive*, void* client, const void* buffer, size_t length) {
  static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
  return static_cast<la_ssize_t>(length);
}

// The path of an uploaded entry with any leading "./" dropped; a directory's trailing '/' too.
std::string NormalisedPath(std::string path, bool directory) {
  while (path.starts_with("./")) path.erase(0, 2);
  if (directory) {
    while (!path.empty() && path.back() == '/') path.pop_back();
  }
  return path;
}

// Reads the data of the current entry, which the header says is `size` bytes, then asks once
// more: an entry that holds more than its header says (a zip whose deflate stream runs on) is
// refused, and a zip entry's CRC and sizes are checked only when its end is reached.
FolderResult<std::string> ReadData(archive* a, const std::string& path, size_t size) {
  std::string bytes(size, '\0');
  size_t got = 0;
  while (got < size) {
    const la_ssize_t n = archive_read_data(a, bytes.data() + got, size - got);
    if (n < 0) return Bad(path + ": " + LibraryError(a));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (got != size) {
    return Bad(path + ": truncated: " + std::to_string(got) + " of " + std::to_string(size) +
               " bytes");
  }
  char past_end = 0;
  const la_ssize_t n = archive_read_data(a, &past_end, 1);
  if (n < 0) return Bad(path + ": " + LibraryError(a));
  if (n > 0) return Bad(path + ": holds more than the " + std::to_string(size) + " bytes it says");
  return bytes;
}

// The gunzipped bytes when `bytes` is gzip-compressed (libarchive's gzip filter, which reads
// concatenated members too; the raw format only hands its output over), nullopt when it is not.
// Reads at most archive_bytes_max + 1 bytes of the expansion, so a gzip bomb is refused after
// about archive_bytes_max bytes and never held whole.
FolderResult<std::optional<std::string>> Gunzipped(std::string_view bytes,
                                                   const FolderLimits& limits) {
  std::unique_ptr<archive, ReadDeleter> a(archive_read_new());
  if (!a) return Bad("libarchive: out of memory");
  if (archive_read_support_filter_gzip(a.get()) != ARCHIVE_OK ||
      archive_read_support_format_raw(a.get()) != ARCHIVE_OK ||
      archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    return Bad(std::string(kNotAnArchive) + ": " + LibraryError(a.get()));
  }
  if (archive_filter_code(a.get(), 0) != ARCHIVE_FILTER_GZIP) return std::nullopt;
  archive_entry* entry = nullptr;
  if (archive_read_next_header(a.get(), &entry) != ARCHIVE_OK) {
    return Bad("is not a valid gzip stream: " + LibraryError(a.get()));
  }
  std::string out;
  while (true) {
    assert(out.size() <= limits.archive_bytes_max);
    const size_t want = std::min(kGunzipChunkBytes, limits.archive_bytes_max + 1 - out.size());
    const size_t old_size = out.size();
    out.resize(old_size + want);
    const la_ssize_t n = archive_read_data(a.get(), out.data() + old_size, want);
    out.resize(old_size + static_cast<size_t>(std::max<la_ssize_t>(n, 0)));
    if (n < 0) return Bad("is not a valid gzip stream: " + LibraryError(a.get()));
    if (n == 0) break;
    if (out.size() > limits.archive_bytes_max) {
      return Bad("expands to more than " + std::to_string(limits.archive_bytes_max) +
                 " bytes when gunzipped (the limit for an archive)");
    }
  }
  return std::optional<std::string>(std::move(out));
}

// Checks one entry's kind and size against the limits; kFile entries then have their data read.
enum class EntryKind { kFile, kDirectory };
FolderResult<EntryKind> CheckEntry(archive_entry* entry, const std::string& path,
                                   const FolderLimits& limits) {
  if (archive_entry_is_encrypted(entry) != 0) {
    return Bad(path + ": encrypted entries are not allowed (no encryption in a skill folder)");
  }
  if (archive_entry_hardlink(entry) != nullptr || archive_entry_symlink(entry) != nullptr) {
    return Bad(path + ": links are not allowed in a skill folder");
  }
  const mode_t type = archive_entry_filetype(entry);
  if (type == AE_IFDIR) return EntryKind::kDirectory;
  if (type != AE_IFREG) return Bad(path + ": only regular files and directories are allowed");
  if (archive_entry_sparse_count(entry) > 0) return Bad(path + ": sparse files are not allowed");
  if (!archive_entry_size_is_set(entry) || archive_entry_size(entry) < 0) {
    return Bad(path + ": the entry has no size");
  }
  const auto size = static_cast<uint64_t>(archive_entry_size(entry));
  const bool is_skill_md = path == "SKILL.md";
  const size_t max = is_skill_md ? limits.skill_md_bytes_max : limits.file_bytes_max;
  if (size > max) {
    return Bad(path + ": " + std::to_string(size) + " bytes, more than " + std::to_string(max) +
               (is_skill_md ? " (the limit for SKILL.md)" : " (the limit for one file)"));
  }
  return EntryKind::kFile;
}

// The files of the tar or zip archive `bytes` (a tar only when `tar_only`: what a gzip stream
// may hold), with every entry checked.
FolderResult<std::vector<FolderFile>> ReadEntries(std::string_view bytes, bool tar_only,
                                                  const FolderLimits& limits) {
  const std::string_view unknown = tar_only ? kNotATarInGzip : kNotAnArchive;
  std::unique_ptr<archive, ReadDeleter> a(archive_read_new());
  if (!a) return Bad("libarchive: out of memory");
  if (archive_read_support_format_tar(a.get()) != ARCHIVE_OK ||
      (!tar_only && archive_read_support_format_zip(a.get()) != ARCHIVE_OK) ||
      archive_read_open_memory(a.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    return Bad(std::string(unknown) + ": " + LibraryError(a.get()));
  }
  std::vector<FolderFile> files;
  std::set<std::string> seen;
  size_t entries = 0;
  size_t total_bytes = 0;
  archive_entry* entry = nullptr;
  while (true) {
    const int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc != ARCHIVE_OK) {
      return Bad((entries == 0 ? std::string(unknown) : "is not a valid archive") + ": " +
                 LibraryError(a.get()));
    }
    if (++entries > kArchiveEntriesMax) {
      return Bad("holds more than " + std::to_string(kArchiveEntriesMax) + " entries");
    }
    const char* name = archive_entry_pathname(entry);
    // No path in this locale's terms: one that is not ASCII (which CheckPath refuses anyway).
    if (name == nullptr) return Bad("an entry's path is not printable ASCII");
    const bool directory = archive_entry_filetype(entry) == AE_IFDIR;
    const std::string path = NormalisedPath(name, directory);
    if (directory && path.empty()) continue;  // "./" itself
    if (auto reason = CheckPath(path)) return Bad(std::string(name) + ": " + *reason);
    auto kind = CheckEntry(entry, path, limits);
    if (!kind) return tl::unexpected(kind.error());
    if (*kind == EntryKind::kDirectory) continue;
    if (!seen.insert(path).second) return Bad(path + ": the path is in the archive twice");
    if (files.size() + 1 > limits.files_max) {
      return Bad("holds more than " + std::to_string(limits.files_max) + " files");
    }
    // Checked before the data is read: the sum of what is unpacked stays within the bound.
    const auto size = static_cast<size_t>(archive_entry_size(entry));
    assert(total_bytes <= limits.archive_bytes_max);
    if (size > limits.archive_bytes_max - total_bytes) {
      return Bad("its files hold more than " + std::to_string(limits.archive_bytes_max) + " bytes");
    }
    auto data = ReadData(a.get(), path, size);
    if (!data) return tl::unexpected(data.error());
    total_bytes += data->size();
    const bool executable = (archive_entry_perm(entry) & 0111) != 0;
    files.push_back(FolderFile{path, executable, std::move(*data)});
  }
  std::sort(files.begin(), files.end(),
            [](const FolderFile& a, const FolderFile& b) { return a.path < b.path; });
  return files;
}

}  // namespace

std::optional<std::string> CheckPath(std::string_view path) {
  if (path.empty()) return "the path is empty";
  if (path.size() > kFolderPathBytesMax) {
    return "the path is " + std::to_string(path.size()) + " bytes, more than " +
           std::to_string(kFolderPathBytesMax);
  }
  if (path.front() == '/') return "absolute paths are not allowed";
  for (char c : path) {
    if (c < 0x20 || c > 0x7e || c == '\\') {
      return "a path may hold only printable ASCII other than '\\'";
    }
  }
  size_t depth = 0;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t slash = std::min(path.find('/', start), path.size());
    const std::string_view part = path.substr(start, slash - start);
    if (part.empty()) return "a path may not hold an empty component ('//' or a trailing '/')";
    if (part == "..") return "a path may not hold '..'";
    if (part == ".") return "a path may not hold '.' components";
    if (++depth > kFolderPathDepthMax) {
      return "the path is more than " + std::to_string(kFolderPathDepthMax) + " levels deep";
    }
    start = slash + 1;
  }
  return std::nullopt;
}

FolderResult<std::string> WriteArchive(std::vector<FolderFile> files) {
  std::sort(files.begin(), files.end(),
            [](const FolderFile& a, const FolderFile& b) { return a.path < b.path; });
  std::string out;
  std::unique_ptr<archive, WriteDeleter> a(archive_write_new());
  if (!a) return Bad("libarchive: out of memory");
  if (archive_write_set_format_ustar(a.get()) != ARCHIVE_OK ||
      archive_write_add_filter_none(a.get()) != ARCHIVE_OK ||
      archive_write_set_bytes_per_block(a.get(), kTarBlockBytes) != ARCHIVE_OK ||
      archive_write_set_bytes_in_last_block(a.get(), 1) != ARCHIVE_OK ||
      archive_write_open2(a.get(), &out, nullptr, &AppendBytes, nullptr, nullptr) != ARCHIVE_OK) {
    return Bad("libarchive: " + LibraryError(a.get()));
  }
  std::unique_ptr<archive_entry, EntryDeleter> entry(archive_entry_new());
  for (const FolderFile& file : files) {
    if (auto reason = CheckPath(file.path)) return Bad(file.path + ": " + *reason);
    archive_entry_clear(entry.get());
    archive_entry_set_pathname(entry.get(), file.path.c_str());
    archive_entry_set_filetype(entry.get(), AE_IFREG);
    archive_entry_set_perm(entry.get(), file.executable ? kModeExecutable : kModeRegular);
    archive_entry_set_size(entry.get(), static_cast<la_int64_t>(file.bytes.size()));
    archive_entry_set_mtime(entry.get(), 0, 0);
    archive_entry_set_uid(entry.get(), 0);
    archive_entry_set_gid(entry.get(), 0);
    if (archive_write_header(a.get(), entry.get()) != ARCHIVE_OK) {
      return Bad(file.path + ": " + LibraryError(a.get()));
    }
    if (!file.bytes.empty() && archive_write_data(a.get(), file.bytes.data(), file.bytes.size()) !=
                                   static_cast<la_ssize_t>(file.bytes.size())) {
      return Bad(file.path + ": " + LibraryError(a.get()));
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK)
    return Bad("libarchive: " + LibraryError(a.get()));
  return out;
}

FolderResult<std::vector<FolderFile>> ReadArchive(std::string_view archive,
                                                  const FolderLimits& limits) {
  if (archive.size() > limits.archive_bytes_max) {
    return Bad("is " + std::to_string(archive.size()) + " bytes, more than " +
               std::to_string(limits.archive_bytes_max));
  }
  if (archive.empty()) return Bad("is empty");
  auto gunzipped = Gunzipped(archive, limits);
  if (!gunzipped) return tl::unexpected(gunzipped.error());
  if (*gunzipped) return ReadEntries(**gunzipped, /*tar_only=*/true, limits);
  return ReadEntries(archive, /*tar_only=*/false, limits);
}

}  // namespace skillnode::discovery::skillmd
