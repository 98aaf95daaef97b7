// The deterministic archive, and uploaded archives: what is read, what hostile ones are
// refused for.
#include "discovery/skillmd/skill_archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "discovery/skillmd/skill_folder.h"

namespace skillnode::discovery::skillmd {
namespace {

// One entry of a hand-made tar: what a hostile or foreign client could send.
struct RawEntry {
  std::string path = {};
  mode_t type = AE_IFREG;
  mode_t perm = 0644;
  std::string bytes = {};
  std::string link = {};  // symlink target, or hardlink target when `hardlink`
  bool hardlink = false;
  time_t mtime = 1700000000;
  std::string owner = "alice";
};

la_ssize_t Append(archive*, void* out, const void* data, size_t size) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(data), size);
  return static_cast<la_ssize_t>(size);
}

// A tar of `entries` in `format` (ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ..._GNUTAR, ...).
std::string MakeTar(const std::vector<RawEntry>& entries,
                    int format = ARCHIVE_FORMAT_TAR_PAX_RESTRICTED) {
  std::string out;
  archive* a = archive_write_new();
  REQUIRE(archive_write_set_format(a, format) == ARCHIVE_OK);
  REQUIRE(archive_write_open2(a, &out, nullptr, &Append, nullptr, nullptr) == ARCHIVE_OK);
  for (const RawEntry& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_filetype(entry, e.type);
    archive_entry_set_perm(entry, e.perm);
    archive_entry_set_mtime(entry, e.mtime, 0);
    archive_entry_set_uname(entry, e.owner.c_str());
    archive_entry_set_uid(entry, 1000);
    if (e.type == AE_IFLNK) archive_entry_set_symlink(entry, e.link.c_str());
    if (e.hardlink) archive_entry_set_hardlink(entry, e.link.c_str());
    if (e.type == AE_IFCHR) archive_entry_set_rdev(entry, 0x0103);
    archive_entry_set_size(
        entry, e.type == AE_IFREG && !e.hardlink ? static_cast<la_int64_t>(e.bytes.size()) : 0);
    // ARCHIVE_WARN: a non-ASCII path in the C locale, written as raw bytes.
    REQUIRE(archive_write_header(a, entry) >= ARCHIVE_WARN);
    if (e.type == AE_IFREG && !e.bytes.empty()) {
      archive_write_data(a, e.bytes.data(), e.bytes.size());
    }
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

const std::string kSkillMd = "---\nname: demo\ndescription: A demo.\n---\nbody\r\n";

std::string RefusalOf(const std::vector<RawEntry>& entries, const FolderLimits& limits = {}) {
  auto files = ReadArchive(MakeTar(entries), limits);
  REQUIRE_FALSE(files);
  CHECK(files.error().file == "archive");
  return files.error().reason;
}

TEST_CASE("The same files give the same archive whatever their order", "[unit]") {
  std::vector<FolderFile> files = {{"SKILL.md", false, kSkillMd},
                                   {"scripts/run.sh", true, "#!/bin/sh\n"},
                                   {"references/a.md", false, "a"}};
  auto first = WriteArchive(files);
  std::reverse(files.begin(), files.end());
  auto second = WriteArchive(files);
  REQUIRE(first);
  REQUIRE(second);
  CHECK(*first == *second);
  CHECK(first->size() % 512 == 0);
  files[0].bytes += "x";  // one changed byte
  CHECK(Sha256Of(*WriteArchive(files)) != Sha256Of(*first));
  files[0].bytes.pop_back();
  files[0].executable = !files[0].executable;  // the executable bit is content
  CHECK(*WriteArchive(files) != *first);
}

TEST_CASE("Uploads with other mtimes, owners, order and permission bits remake the same archive",
          "[unit]") {
  const std::vector<RawEntry> a = {
      {.path = "./SKILL.md", .perm = 0600, .bytes = kSkillMd, .mtime = 1},
      {.path = "./scripts/", .type = AE_IFDIR, .perm = 0700},
      {.path = "./scripts/run.sh", .perm = 0700, .bytes = "#!/bin/sh\n", .mtime = 5},
  };
  const std::vector<RawEntry> b = {
      {.path = "scripts/run.sh", .perm = 0755, .bytes = "#!/bin/sh\n", .owner = "bob"},
      {.path = "SKILL.md", .perm = 0664, .bytes = kSkillMd, .mtime = 1234567890},
  };
  auto files_a = ReadArchive(MakeTar(a), {});
  auto files_b = ReadArchive(MakeTar(b, ARCHIVE_FORMAT_TAR_GNUTAR), {});
  REQUIRE(files_a);
  REQUIRE(files_b);
  CHECK(*files_a == *files_b);
  auto folder_a = CheckFolder(*files_a, {});
  auto folder_b = CheckFolder(*files_b, {});
  REQUIRE(folder_a);
  REQUIRE(folder_b);
  CHECK(folder_a->archive_sha256 == folder_b->archive_sha256);
  CHECK(folder_a->skill_md == kSkillMd);  // CRLF and all, unchanged
  // The node's own archive reads back to the same files.
  auto again = ReadArchive(folder_a->archive, {});
  REQUIRE(again);
  CHECK(*again == *files_a);
}

TEST_CASE("Paths that escape the folder are refused", "[unit]") {
  CHECK(RefusalOf({{.path = "../evil", .bytes = "x"}}).find("'..'") != std::string::npos);
  CHECK(RefusalOf({{.path = "a/../../evil", .bytes = "x"}}).find("'..'") != std::string::npos);
  CHECK(RefusalOf({{.path = "/etc/passwd", .bytes = "x"}}).find("absolute") != std::string::npos);
  CHECK(RefusalOf({{.path = "a//b", .bytes = "x"}}).find("empty component") != std::string::npos);
  CHECK(RefusalOf({{.path = "a\\b", .bytes = "x"}}).find("printable ASCII") != std::string::npos);
  CHECK(RefusalOf({{.path = "caf\xC3\xA9.md", .bytes = "x"}}).find("ASCII") != std::string::npos);
}

TEST_CASE("Links, devices and FIFOs are refused", "[unit]") {
  CHECK(RefusalOf({{.path = "link", .type = AE_IFLNK, .link = "/etc/passwd"}}).find("links") !=
        std::string::npos);
  CHECK(RefusalOf({{.path = "a", .bytes = "x"}, {.path = "b", .link = "a", .hardlink = true}})
            .find("links") != std::string::npos);
  CHECK(RefusalOf({{.path = "tty", .type = AE_IFCHR}}).find("only regular files") !=
        std::string::npos);
  CHECK(RefusalOf({{.path = "fifo", .type = AE_IFIFO}}).find("only regular files") !=
        std::string::npos);
}

TEST_CASE("Duplicates and archives over the limits are refused", "[unit]") {
  CHECK(RefusalOf({{.path = "a", .bytes = "1"}, {.path = "./a", .bytes = "2"}}).find("twice") !=
        std::string::npos);
  FolderLimits limits;
  limits.files_max = 2;
  CHECK(RefusalOf({{.path = "a"}, {.path = "b"}, {.path = "c"}}, limits).find("more than 2") !=
        std::string::npos);
  limits = {};
  limits.file_bytes_max = 4;
  CHECK(RefusalOf({{.path = "a", .bytes = "12345"}}, limits).find("limit for one file") !=
        std::string::npos);
  limits = {};
  limits.skill_md_bytes_max = 4;
  CHECK(RefusalOf({{.path = "SKILL.md", .bytes = "12345"}}, limits).find("limit for SKILL.md") !=
        std::string::npos);
  limits = {};
  limits.archive_bytes_max = 1024;
  CHECK(RefusalOf({{.path = "a", .bytes = std::string(600, 'a')}}, limits).find("more than 1024") !=
        std::string::npos);
}

TEST_CASE("Bytes that are not a tar archive are refused without a crash", "[unit]") {
  for (const std::string& junk :
       {std::string("not a tar"), std::string(1024, '\0'), std::string(700, '\xff')}) {
    auto files = ReadArchive(junk, {});
    if (files) {
      CHECK(files->empty());  // two zero blocks are an empty archive
    } else {
      CHECK(files.error().file == "archive");
    }
  }
  CHECK_FALSE(ReadArchive("", {}));
  // A truncated archive: a header that promises more data than follows.
  const std::string tar = MakeTar({{.path = "SKILL.md", .bytes = std::string(4000, 'x')}});
  CHECK_FALSE(ReadArchive(tar.substr(0, 1536), {}));
}

TEST_CASE("CheckPath accepts ordinary relative paths", "[unit]") {
  CHECK_FALSE(CheckPath("SKILL.md"));
  CHECK_FALSE(CheckPath("scripts/helpers/run.py"));
  CHECK_FALSE(CheckPath(".hidden/file"));
  CHECK(CheckPath("a/./b"));
  CHECK(CheckPath(std::string(kFolderPathBytesMax + 1, 'a')));
  std::string deep;
  for (size_t i = 0; i <= kFolderPathDepthMax; ++i) deep += "d/";
  CHECK(CheckPath(deep + "f"));
}

}  // namespace
}  // namespace skillnode::discovery::skillmd
