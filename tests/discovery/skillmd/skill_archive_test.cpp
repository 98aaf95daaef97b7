// The deterministic archive, and uploaded archives: what is read, what hostile ones are
// refused for.
#include "discovery/skillmd/skill_archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
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

// An archive of `entries` in `format` (ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ..._GNUTAR, ..._ZIP,
// ..._7ZIP, ...) through `filter` (ARCHIVE_FILTER_NONE, ..._GZIP, ..._XZ, ...), with the
// writer's `options` ("zip:compression=store", ...) and `passphrase` (for zip encryption).
std::string MakeArchive(const std::vector<RawEntry>& entries, int format,
                        int filter = ARCHIVE_FILTER_NONE, const char* options = nullptr,
                        const char* passphrase = nullptr) {
  std::string out;
  archive* a = archive_write_new();
  REQUIRE(archive_write_set_format(a, format) == ARCHIVE_OK);
  REQUIRE(archive_write_add_filter(a, filter) == ARCHIVE_OK);
  if (options != nullptr) REQUIRE(archive_write_set_options(a, options) == ARCHIVE_OK);
  if (passphrase != nullptr) REQUIRE(archive_write_set_passphrase(a, passphrase) == ARCHIVE_OK);
  REQUIRE(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
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
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  archive_write_free(a);
  return out;
}

std::string MakeTar(const std::vector<RawEntry>& entries,
                    int format = ARCHIVE_FORMAT_TAR_PAX_RESTRICTED) {
  return MakeArchive(entries, format);
}

std::string MakeZip(const std::vector<RawEntry>& entries, const char* options = nullptr,
                    const char* passphrase = nullptr) {
  return MakeArchive(entries, ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, options, passphrase);
}

// One gzip member holding `bytes`, whatever they are.
std::string Gzip(std::string_view bytes) {
  std::string out;
  archive* a = archive_write_new();
  REQUIRE(archive_write_set_format_raw(a) == ARCHIVE_OK);
  REQUIRE(archive_write_add_filter_gzip(a) == ARCHIVE_OK);
  REQUIRE(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
  REQUIRE(archive_write_open2(a, &out, nullptr, &Append, nullptr, nullptr) == ARCHIVE_OK);
  archive_entry* entry = archive_entry_new();
  archive_entry_set_pathname(entry, "data");
  archive_entry_set_filetype(entry, AE_IFREG);
  archive_entry_set_size(entry, static_cast<la_int64_t>(bytes.size()));
  REQUIRE(archive_write_header(a, entry) == ARCHIVE_OK);
  REQUIRE(archive_write_data(a, bytes.data(), bytes.size()) ==
          static_cast<la_ssize_t>(bytes.size()));
  archive_entry_free(entry);
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  archive_write_free(a);
  return out;
}

const std::string kSkillMd = "---\nname: demo\ndescription: A demo.\n---\nbody\r\n";

std::string RefusalOfBytes(const std::string& bytes, const FolderLimits& limits = {}) {
  auto files = ReadArchive(bytes, limits);
  REQUIRE_FALSE(files);
  CHECK(files.error().file == "archive");
  return files.error().reason;
}

std::string RefusalOf(const std::vector<RawEntry>& entries, const FolderLimits& limits = {}) {
  return RefusalOfBytes(MakeTar(entries), limits);
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

// The folder of the test above as a client packs it: "./" prefixes, a directory entry, an
// executable script.
const std::vector<RawEntry> kFolder = {
    {.path = "./SKILL.md", .perm = 0600, .bytes = kSkillMd},
    {.path = "./scripts/", .type = AE_IFDIR, .perm = 0700},
    {.path = "./scripts/run.sh", .perm = 0700, .bytes = "#!/bin/sh\n"},
    {.path = "./references/a.md", .bytes = std::string(3000, 'a')},
};

TEST_CASE("A tar.gz and a zip of a folder read to the same files as its tar", "[unit]") {
  auto from_tar = ReadArchive(MakeTar(kFolder), {});
  REQUIRE(from_tar);
  REQUIRE(from_tar->size() == 3);
  CHECK(from_tar->at(2).path == "scripts/run.sh");
  CHECK(from_tar->at(2).executable);
  for (const std::string& archive :
       {MakeArchive(kFolder, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_GZIP),
        MakeArchive(kFolder, ARCHIVE_FORMAT_TAR_GNUTAR, ARCHIVE_FILTER_GZIP), MakeZip(kFolder),
        Gzip(MakeTar(kFolder)) + Gzip("")}) {  // a second, empty gzip member
    auto files = ReadArchive(archive, {});
    REQUIRE(files);
    CHECK(*files == *from_tar);
  }
}

TEST_CASE("A zip made where files have no Unix mode holds no executable file", "[unit]") {
  std::string zip = MakeZip({{.path = "SKILL.md", .bytes = kSkillMd},
                             {.path = "run.sh", .perm = 0755, .bytes = "#!/bin/sh\n"}});
  // Each central directory header says which system made the entry (its 6th byte; 3 is Unix):
  // made on MS-DOS, the external attributes hold no mode.
  size_t headers = 0;
  for (size_t at = zip.find("PK\x01\x02"); at != std::string::npos;
       at = zip.find("PK\x01\x02", at + 4)) {
    zip[at + 5] = 0;
    ++headers;
  }
  REQUIRE(headers == 2);
  auto files = ReadArchive(zip, {});
  REQUIRE(files);
  REQUIRE(files->size() == 2);
  CHECK(files->at(0).path == "SKILL.md");
  CHECK(files->at(1).path == "run.sh");
  CHECK_FALSE(files->at(1).executable);
}

TEST_CASE("A gzip bomb is refused at the archive bound, its expansion never read whole", "[unit]") {
  // Deflate packs at most about 1,032 bytes into one, so the bomb is 64 gzip members of
  // 16 MiB of zeros each: 1 GiB from about 1 MiB, read back as one stream.
  const std::string member = Gzip(std::string(16 * 1024 * 1024, '\0'));
  std::string bomb;
  for (int i = 0; i < 64; ++i) bomb += member;
  REQUIRE(bomb.size() < kFolderArchiveBytesMaxDefault);
  CHECK(RefusalOfBytes(bomb).find("expands to more than " +
                                  std::to_string(kFolderArchiveBytesMaxDefault) +
                                  " bytes when gunzipped") != std::string::npos);
  FolderLimits limits;
  limits.archive_bytes_max = 2 * 1024 * 1024;
  CHECK(RefusalOfBytes(bomb, limits).find("more than 2097152 bytes") != std::string::npos);
  // A real tar.gz whose tar is over the bound, although each file is within its own limit.
  std::vector<RawEntry> big;
  for (int i = 0; i < 3; ++i)
    big.push_back({.path = "f" + std::to_string(i), .bytes = std::string(1024 * 1024, 'x')});
  CHECK(RefusalOfBytes(MakeArchive(big, ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_GZIP), limits)
            .find("expands to more than 2097152") != std::string::npos);
}

TEST_CASE("A zip's links, escaping paths and encrypted entries are refused", "[unit]") {
  const RawEntry skill_md = {.path = "SKILL.md", .bytes = kSkillMd};
  CHECK(RefusalOfBytes(
            MakeZip({skill_md, {.path = "passwd", .type = AE_IFLNK, .link = "/etc/passwd"}}))
            .find("passwd: links are not allowed") != std::string::npos);
  CHECK(RefusalOfBytes(MakeZip({skill_md, {.path = "../x", .bytes = "x"}})).find("'..'") !=
        std::string::npos);
  CHECK(RefusalOfBytes(MakeZip({skill_md, {.path = "/etc/x", .bytes = "x"}})).find("absolute") !=
        std::string::npos);
  CHECK(RefusalOfBytes(MakeZip({skill_md, {.path = "./SKILL.md", .bytes = "x"}})).find("twice") !=
        std::string::npos);
  CHECK(RefusalOfBytes(MakeZip({skill_md}, "zip:encryption=zipcrypt", "secret"))
            .find("SKILL.md: encrypted entries") != std::string::npos);
  FolderLimits limits;
  limits.file_bytes_max = 4;
  CHECK(RefusalOfBytes(MakeZip({skill_md, {.path = "a", .bytes = "12345"}}), limits)
            .find("limit for one file") != std::string::npos);
}

TEST_CASE("A zip entry whose bytes do not match its CRC is refused", "[unit]") {
  std::string zip = MakeZip({{.path = "SKILL.md", .bytes = kSkillMd}}, "zip:compression=store");
  REQUIRE(ReadArchive(zip, {}));
  const size_t at = zip.find("body");
  REQUIRE(at != std::string::npos);
  zip[at] = 'B';  // stored, so the change reaches the reader and only the CRC can tell
  CHECK(RefusalOfBytes(zip).find("SKILL.md: ZIP bad CRC") != std::string::npos);
}

TEST_CASE("Archives other than tar, tar.gz and zip are refused naming those three", "[unit]") {
  const std::vector<RawEntry> folder = {{.path = "SKILL.md", .bytes = kSkillMd}};
  for (const std::string& other :
       {MakeArchive(folder, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_XZ),
        MakeArchive(folder, ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_BZIP2),
        MakeArchive(folder, ARCHIVE_FORMAT_7ZIP),
        MakeArchive(folder, ARCHIVE_FORMAT_CPIO_SVR4_NOCRC)}) {
    CHECK(RefusalOfBytes(other).find("is not a tar, tar.gz or zip archive") != std::string::npos);
  }
  // A gzip stream must hold a tar.
  CHECK(RefusalOfBytes(Gzip(MakeZip(folder))).find("gzip-compressed but holds no tar") !=
        std::string::npos);
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
