#include "node/state/identity_file.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "node/state/atomic_file.h"
#include "support/temp_dir.h"

namespace skillnode::node::state {
namespace {

using testing::TempDir;

mode_t ModeOf(const std::string& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777;
}

void WriteText(const std::string& path, const std::string& text, mode_t mode = 0600) {
  { std::ofstream(path) << text; }
  ::chmod(path.c_str(), mode);
}

TEST_CASE("an identity saved to a file loads back the same and the file is mode 0600", "[unit]") {
  TempDir dir;
  const auto path = dir.File("identity");
  const auto id = kademlia::Identity::Generate();
  const mode_t old_umask = ::umask(0);  // even a permissive umask must not widen the file
  auto saved = SaveIdentity(path, id);
  ::umask(old_umask);
  REQUIRE(saved);
  CHECK(ModeOf(path) == 0600);
  auto loaded = LoadIdentity(path);
  REQUIRE(loaded);
  CHECK(loaded->node_id() == id.node_id());
  CHECK(loaded->public_key() == id.public_key());
}

TEST_CASE("load-or-create makes an identity once and then keeps it", "[unit]") {
  TempDir dir;
  const auto path = dir.File("identity");
  auto first = LoadOrCreateIdentity(path);
  REQUIRE(first);
  auto second = LoadOrCreateIdentity(path);
  REQUIRE(second);
  CHECK(first->node_id() == second->node_id());
}

TEST_CASE("an identity file readable by others is refused with the fix", "[unit]") {
  TempDir dir;
  const auto path = dir.File("identity");
  REQUIRE(SaveIdentity(path, kademlia::Identity::Generate()));
  ::chmod(path.c_str(), 0644);
  auto loaded = LoadIdentity(path);
  REQUIRE_FALSE(loaded);
  CHECK_THAT(loaded.error().message, Catch::Contains("chmod 600"));
  CHECK_THAT(loaded.error().message, Catch::Contains("644"));
}

TEST_CASE("corrupt identity files are errors that name the problem", "[unit]") {
  TempDir dir;
  const auto path = dir.File("identity");
  struct Case {
    std::string text;
    const char* says;
  };
  const Case cases[] = {
      {"", "first line"},
      {"garbage\n", "first line"},
      {"skillnode-identity v1\n", "second line"},
      {"skillnode-identity v1\nseed abc\n", "odd number"},
      {"skillnode-identity v1\nseed " + std::string(62, 'a') + "\n", "32 bytes"},
      {"skillnode-identity v1\nseed " + std::string(63, 'a') + "x\n", "position 63"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    WriteText(path, c.text);
    auto loaded = LoadIdentity(path);
    REQUIRE_FALSE(loaded);
    CHECK_THAT(loaded.error().message, Catch::Contains(c.says));
    // A corrupt file is reported, not replaced: the caller decides.
    CHECK_FALSE(LoadOrCreateIdentity(path));
  }
}

TEST_CASE("a missing identity file is reported as not found", "[unit]") {
  TempDir dir;
  auto loaded = LoadIdentity(dir.File("absent"));
  REQUIRE_FALSE(loaded);
  CHECK(loaded.error().code == transport::ErrorCode::kNotFound);
}

TEST_CASE("atomic writes replace the whole file and leave no temporary behind", "[unit]") {
  TempDir dir;
  const auto path = dir.File("state");
  const std::vector<uint8_t> first(1000, 'a'), second{'b'};
  REQUIRE(WriteFileAtomic(path, first, 0644));
  REQUIRE(WriteFileAtomic(path, second, 0644));
  CHECK(*ReadWholeFile(path) == second);
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
  }
  CHECK(entries == 1);
}

TEST_CASE("reading refuses oversized files and directories", "[unit]") {
  TempDir dir;
  const auto path = dir.File("big");
  REQUIRE(WriteFileAtomic(path, std::vector<uint8_t>(100, 'x'), 0600));
  auto capped = ReadWholeFile(path, 99);
  REQUIRE_FALSE(capped);
  CHECK_THAT(capped.error().message, Catch::Contains("over the limit"));
  CHECK_FALSE(ReadWholeFile(dir.path().string()));
  CHECK_FALSE(WriteFileAtomic(dir.File("no/such/dir/file"), std::vector<uint8_t>{1}, 0600));
}

}  // namespace
}  // namespace skillnode::node::state
