// CheckFolder on the fixture folders (tests/fixtures/skills) and on broken folders, and the
// record a folder describes.
#include "discovery/skillmd/skill_folder.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kademlia/identity.h"
#include "support/source_root.h"

namespace skillnode::discovery::skillmd {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = testing::SourceRoot() / "tests/fixtures/skills";

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<FolderFile> FilesOf(const fs::path& folder) {
  std::vector<FolderFile> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    const bool executable =
        (entry.status().permissions() & fs::perms::owner_exec) != fs::perms::none;
    files.push_back(FolderFile{entry.path().lexically_relative(folder).generic_string(), executable,
                               ReadFile(entry.path())});
  }
  return files;
}

std::vector<fs::path> FixtureFolders() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(kFixtures)) {
    if (entry.is_directory()) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE("Every fixture folder is accepted, its name is its front matter's, its bytes unchanged",
          "[unit]") {
  const auto folders = FixtureFolders();
  REQUIRE(folders.size() >= 6);
  for (const fs::path& folder : folders) {
    INFO(folder.string());
    auto checked = CheckFolder(FilesOf(folder), {});
    REQUIRE(checked);
    CHECK(checked->front_matter.name == folder.filename().string());
    CHECK(checked->skill_md == ReadFile(folder / "SKILL.md"));
    CHECK(checked->skill_md_sha256 == Sha256Of(ReadFile(folder / "SKILL.md")));
    CHECK(checked->archive_sha256 == Sha256Of(checked->archive));
    // Reading the archive back gives the folder's files.
    auto files = ReadArchive(checked->archive, {});
    REQUIRE(files);
    auto expected = FilesOf(folder);
    std::sort(expected.begin(), expected.end(),
              [](const FolderFile& a, const FolderFile& b) { return a.path < b.path; });
    CHECK(*files == expected);
  }
}

TEST_CASE("The fixtures hold what they claim to", "[unit]") {
  CHECK(ReadFile(kFixtures / "crlf-endings/SKILL.md").find("\r\n") != std::string::npos);
  CHECK(ReadFile(kFixtures / "bom-utf8/SKILL.md").starts_with("\xEF\xBB\xBF---"));
  CHECK(ReadFile(kFixtures / "large-skill-md/SKILL.md").size() > 100 * 1024);
  auto multi = CheckFolder(FilesOf(kFixtures / "multiline-description"), {});
  REQUIRE(multi);
  CHECK(multi->front_matter.description.find("bullet points.\nUse") == std::string::npos);
  CHECK(
      multi->front_matter.description.starts_with("Summarises long documents into a few bullet "
                                                  "points. Use when"));
  auto scripts = FilesOf(kFixtures / "scripts-references");
  CHECK(std::any_of(scripts.begin(), scripts.end(), [](const FolderFile& f) {
    return f.path == "scripts/lint.sh" && f.executable;
  }));
}

TEST_CASE("A folder without SKILL.md at its top is refused", "[unit]") {
  auto e = CheckFolder({{"docs/SKILL.md", false, "---\nname: a\ndescription: b\n---\n"}}, {});
  REQUIRE_FALSE(e);
  CHECK(e.error().reason.find("no SKILL.md") != std::string::npos);
  CHECK_FALSE(CheckFolder({{"skill.md", false, "---\nname: a\ndescription: b\n---\n"}}, {}));
}

TEST_CASE("A file that is also another file's directory is refused", "[unit]") {
  auto e = CheckFolder({{"SKILL.md", false, "---\nname: a\ndescription: b\n---\n"},
                        {"a", false, "x"},
                        {"a/b", false, "y"}},
                       {});
  REQUIRE_FALSE(e);
  CHECK(e.error().file == "a/b");
}

TEST_CASE("Front matter errors pass through with their line", "[unit]") {
  auto e = CheckFolder({{"SKILL.md", false, "---\nname: a\ndescription:\n---\n"}}, {});
  REQUIRE_FALSE(e);
  CHECK(e.error().Message().starts_with("SKILL.md line 3: description: must be a non-empty"));
}

TEST_CASE("A folder's record carries both digests and sizes and fits the record limit", "[unit]") {
  auto folder = CheckFolder(FilesOf(kFixtures / "scripts-references"), {});
  REQUIRE(folder);
  kademlia::store::SkillRecord record;
  record.agent_id = "agent";
  record.skill_id = folder->front_matter.name;
  record.version = "1.0.0";
  record.skill_type = "tool-skill";
  record.endpoint = "http://127.0.0.1:1/";
  record.capabilities = {"lint"};
  record.ttl_seconds = 3600;
  record.descriptor = kademlia::store::SkillDescriptor{};
  DescribeFolder(*folder, *record.descriptor);
  CHECK(record.descriptor->skill_md_size == folder->skill_md.size());
  CHECK(record.descriptor->archive_size == folder->archive.size());
  const kademlia::Identity publisher = kademlia::Identity::FromSeed(kademlia::Seed{});
  auto signed_record = kademlia::store::SignRecord(record, publisher);
  REQUIRE(signed_record);
  auto verified = kademlia::store::VerifyRecord(signed_record->encoded, signed_record->signature);
  REQUIRE(verified);
  CHECK(verified->record.descriptor == record.descriptor);
}

}  // namespace
}  // namespace skillnode::discovery::skillmd
