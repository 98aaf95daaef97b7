// Saved contacts and the data directory: round trips, corrupt files set aside, never fatal.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kademlia/wire/encoding.h"
#include "node/state/contacts_file.h"
#include "node/state/data_dir.h"
#include "node/state/identity_file.h"
#include "support/temp_dir.h"

namespace skillnode::node::state {
namespace {

using Catch::Contains;
using testing::TempDir;

class RecordingLogger final : public transport::Logger {
 public:
  bool Enabled(transport::LogLevel) const override { return true; }
  void Log(transport::LogLevel, std::string_view message) override { lines.emplace_back(message); }
  bool Saw(const std::string& needle) const {
    for (const auto& line : lines) {
      if (line.find(needle) != std::string::npos) return true;
    }
    return false;
  }
  std::vector<std::string> lines;
};

kademlia::Contact MakeContact(const std::string& endpoint) {
  const auto identity = kademlia::Identity::Generate();
  kademlia::Contact contact;
  contact.id = identity.node_id();
  contact.public_key = identity.public_key();
  contact.endpoint = transport::Endpoint::Parse(endpoint).value();
  return contact;
}

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST_CASE("saved contacts read back the same, IPv4 and IPv6", "[unit]") {
  const std::vector<kademlia::Contact> contacts = {MakeContact("10.0.0.1:6881"),
                                                   MakeContact("[2001:db8::7]:7000")};
  const std::string text = EncodeContacts(5, contacts);
  auto decoded = DecodeContacts(text);
  REQUIRE(decoded);
  CHECK(decoded->network_id == 5);
  REQUIRE(decoded->contacts.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CHECK(decoded->contacts[i].id == contacts[i].id);
    CHECK(decoded->contacts[i].endpoint == contacts[i].endpoint);
    CHECK(decoded->contacts[i].public_key == contacts[i].public_key);
  }
  auto empty = DecodeContacts(EncodeContacts(0, {}));
  REQUIRE(empty);
  CHECK(empty->contacts.empty());
}

TEST_CASE("corrupt contact files are errors that name the line", "[unit]") {
  const auto c = MakeContact("10.0.0.1:6881");
  const std::string good =
      c.id.ToHex() + " 10.0.0.1:6881 " + kademlia::wire::HexEncode(c.public_key);
  const std::string other_key =
      kademlia::wire::HexEncode(kademlia::Identity::Generate().public_key());
  struct Case {
    std::string text;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"", "line 1: missing header"},
      {"garbage\n", "line 1: expected 'skillnode-contacts v1'"},
      {"skillnode-contacts v1\n", "line 2: missing header"},
      {"skillnode-contacts v1\nnetwork x\n", "line 2: expected 'network <id>'"},
      {"skillnode-contacts v1\nnetwork 0\n" + good, "line 3: no end of line"},
      {"skillnode-contacts v1\nnetwork 0\n" + good + " extra\n", "line 3: expected '<id>"},
      {"skillnode-contacts v1\nnetwork 0\nzz 10.0.0.1:1 " + other_key + "\n", "line 3: id:"},
      {"skillnode-contacts v1\nnetwork 0\n" + c.id.ToHex() + " nowhere " + other_key + "\n",
       "line 3: endpoint:"},
      {"skillnode-contacts v1\nnetwork 0\n" + c.id.ToHex() + " 10.0.0.1:1 " + other_key + "\n",
       "line 3: id is not the SHA-256 of the public key"},
  };
  for (const auto& test : cases) {
    INFO(test.text);
    auto decoded = DecodeContacts(test.text);
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().code == transport::ErrorCode::kParse);
    CHECK_THAT(decoded.error().message, Contains(test.says));
  }
}

TEST_CASE("a corrupt file is set aside under a new name, never over an earlier one", "[unit]") {
  TempDir dir;
  const std::string path = dir.File("contacts");
  Write(path, "one");
  auto first = SetAside(path, 1700000000);
  REQUIRE(first);
  CHECK(*first == path + ".corrupt-1700000000");
  Write(path, "two");
  auto second = SetAside(path, 1700000000);
  REQUIRE(second);
  CHECK(*second == path + ".corrupt-1700000000.1");
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK(std::filesystem::exists(*first));
}

TEST_CASE("the data directory is created with mode 0700 and keeps identity and contacts",
          "[unit]") {
  TempDir dir;
  const std::string path = dir.File("a/b/skillnode");
  auto data = DataDir::Open(path);
  REQUIRE(data);
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0700);
  RecordingLogger logger;
  auto identity = data->LoadIdentity(1, logger);
  REQUIRE(identity);
  auto again = data->LoadIdentity(2, logger);
  REQUIRE(again);
  CHECK(again->node_id() == identity->node_id());
  CHECK(data->LoadContacts(0, 1, logger).empty());
  CHECK(logger.Saw("no saved contacts"));
  const std::vector<kademlia::Contact> contacts = {MakeContact("127.0.0.1:7000")};
  CHECK(data->SaveContacts(0, contacts).value() == SaveOutcome::kSaved);
  CHECK(data->LoadContacts(0, 1, logger).size() == 1);
  // An empty table does not replace saved contacts: they are the way back after a restart.
  CHECK(data->SaveContacts(0, {}).value() == SaveOutcome::kKeptOlder);
  CHECK(data->LoadContacts(0, 1, logger).size() == 1);
}

TEST_CASE("corrupt saved contacts are reported, set aside, and the node starts without them",
          "[unit]") {
  TempDir dir;
  auto data = DataDir::Open(dir.File("state")).value();
  Write(data.contacts_path(), "skillnode-contacts v1\nnetwork 0\nnot a contact\n");
  RecordingLogger logger;
  CHECK(data.LoadContacts(0, 1234, logger).empty());
  CHECK(logger.Saw("saved contacts are corrupt"));
  CHECK(logger.Saw("line 3"));
  CHECK(logger.Saw(data.contacts_path() + ".corrupt-1234"));
  CHECK(std::filesystem::exists(data.contacts_path() + ".corrupt-1234"));
  CHECK_FALSE(std::filesystem::exists(data.contacts_path()));
}

TEST_CASE("contacts saved on another network are not used", "[unit]") {
  TempDir dir;
  auto data = DataDir::Open(dir.File("state")).value();
  REQUIRE(data.SaveContacts(1, std::vector{MakeContact("127.0.0.1:7000")}));
  RecordingLogger logger;
  CHECK(data.LoadContacts(2, 1, logger).empty());
  CHECK(logger.Saw("belong to network 1"));
  CHECK(std::filesystem::exists(data.contacts_path()));  // not corrupt: kept
}

TEST_CASE("a corrupt identity is set aside and replaced; one others can read is refused",
          "[unit]") {
  TempDir dir;
  auto data = DataDir::Open(dir.File("state")).value();
  Write(data.identity_path(), "not an identity\n");
  ::chmod(data.identity_path().c_str(), 0600);
  RecordingLogger logger;
  auto identity = data.LoadIdentity(99, logger);
  REQUIRE(identity);
  CHECK(logger.Saw("identity file is corrupt"));
  CHECK(std::filesystem::exists(data.identity_path() + ".corrupt-99"));
  CHECK(LoadIdentity(data.identity_path()).value().node_id() == identity->node_id());
  ::chmod(data.identity_path().c_str(), 0644);
  auto refused = data.LoadIdentity(100, logger);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Contains("chmod 600"));
}

}  // namespace
}  // namespace skillnode::node::state
