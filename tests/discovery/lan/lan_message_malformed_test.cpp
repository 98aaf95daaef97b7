// Malformed datagrams, limits and Validate refusals for the LAN message codec; the spec
// examples, round trips and encodings are in lan_message_test.cpp.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "discovery/lan/lan_message.h"
#include "lan_message_samples.h"
#include "transport/rng.h"

namespace skillnode::discovery::lan {
namespace {

using message_test::kNodeId;
using message_test::kSpecExamples;

TEST_CASE("Unknown message types are unsupported rather than malformed", "[unit]") {
  for (const std::string text :
       {"SKILL_UNREGISTER_ACK:agent-001;SUCCESS", "JOIN_SCENE:auth", "skill_register:a;b",
        " SKILL_HEARTBEAT:a;s;HEALTHY;1;x", ":", "SKILLNODE_HELLO2:x"}) {
    INFO(text);
    const auto message = Parse(text);
    REQUIRE_FALSE(message);
    CHECK(message.error().code == transport::ErrorCode::kUnsupported);
    CHECK_THAT(message.error().message, Catch::Contains("is not known"));
  }
}

TEST_CASE("Every prefix and every one-byte change of the examples is parsed safely", "[unit]") {
  // Whatever Parse accepts must encode back to the same bytes and validate.
  auto check = [](const std::string& text) {
    const auto message = Parse(text);
    if (!message) {
      CHECK((message.error().code == transport::ErrorCode::kParse ||
             message.error().code == transport::ErrorCode::kUnsupported));
      return;
    }
    CHECK(Encode(*message) == text);
    CHECK(Validate(*message));
  };
  transport::Rng rng(7);
  for (const std::string& example : kSpecExamples) {
    for (size_t size = 0; size <= example.size(); ++size) check(example.substr(0, size));
    for (int i = 0; i < 500; ++i) {
      std::string mutated = example;
      mutated[rng.Below(mutated.size())] = static_cast<char>(rng.Below(256));
      check(mutated);
    }
  }
}

TEST_CASE("Malformed datagrams are refused with an error naming the field and the reason",
          "[unit]") {
  const std::string hb = "SKILL_HEARTBEAT:";
  const std::string reg = "SKILL_REGISTER:a;s;1.0;t;h:1;";
  const std::string resp = "SKILL_DISCOVER_RESPONSE:r;";
  const std::string hello = "SKILLNODE_HELLO:" + kNodeId + ";";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "datagram: no ':' after the message type"},
      {"SKILL_HEARTBEAT", "datagram: no ':' after the message type"},
      {std::string(kLanDatagramMax + 1, 'x'), "datagram: 4097 bytes, more than 4096"},
      {reg + ";;abc;sig", "SKILL_REGISTER timestamp: expected epoch milliseconds, got 'abc'"},
      {reg + ";;;sig", "SKILL_REGISTER timestamp: expected epoch milliseconds, got ''"},
      {reg + ";;+1;sig", "timestamp: expected epoch milliseconds, got '+1'"},
      {reg + ";;-1;sig", "timestamp: expected epoch milliseconds, got '-1'"},
      {reg + ";; 1;sig", "timestamp: expected epoch milliseconds, got ' 1'"},
      {reg + ";;1.5;sig", "timestamp: expected epoch milliseconds, got '1.5'"},
      {reg + ";;01;sig", "timestamp: expected epoch milliseconds without leading zeros, got '01'"},
      {reg + ";;18446744073709551616;sig", "got '18446744073709551616'"},
      {reg + "a,,b;;1;sig", "SKILL_REGISTER capabilities: item 2 is empty"},
      {reg + "a,;;1;sig", "SKILL_REGISTER capabilities: item 2 is empty"},
      {reg + ";,a;1;sig", "SKILL_REGISTER scenes: item 1 is empty"},
      {reg + "a|b;;1;sig", "SKILL_REGISTER capabilities: item 1 contains '|'"},
      {"SKILL_REGISTER:a;s;1.0;t;h:1,h:2;;;1;sig", "SKILL_REGISTER endpoint: contains ','"},
      {"SKILL_REGISTER:a;s;;t;h:1;;;1;sig", "SKILL_REGISTER version: is empty"},
      {reg + ";;1;s g", "SKILL_REGISTER signature: contains ' '; allowed: printable ASCII"},
      {reg + ";;1;s\xc3\xa9", "SKILL_REGISTER signature: contains '\\xc3'"},
      {reg + ";;1", "SKILL_REGISTER signature: missing (8 fields)"},
      {reg + ";;1;sig;", "SKILL_REGISTER: 10 fields, more than 9"},
      {hb + "a;s;HEALTHY;1", "SKILL_HEARTBEAT signature: missing (4 fields)"},
      {hb + "a;s;HEALTHY;1;sig;x", "SKILL_HEARTBEAT: 6 fields, more than 5"},
      {hb, "SKILL_HEARTBEAT skillId: missing (1 field)"},
      {hb + ";s;HEALTHY;1;sig", "SKILL_HEARTBEAT agentId: is empty"},
      {hb + "a;s;healthy;1;sig", "SKILL_HEARTBEAT status: contains 'h'; allowed: A-Z and '_'"},
      {hb + "a;s;;1;sig", "SKILL_HEARTBEAT status: is empty"},
      {hb + "a\tb;s;HEALTHY;1;sig", "SKILL_HEARTBEAT agentId: contains '\\x09'"},
      {hb + "a;s\x7f;HEALTHY;1;sig", "SKILL_HEARTBEAT skillId: contains '\\x7f'"},
      {hb + "a\xff;s;HEALTHY;1;sig", "SKILL_HEARTBEAT agentId: is not valid UTF-8"},
      {hb + "a\xc0\xaf;s;HEALTHY;1;sig", "agentId: is not valid UTF-8"},      // overlong '/'
      {hb + "a\xed\xa0\x80;s;HEALTHY;1;sig", "agentId: is not valid UTF-8"},  // surrogate
      {hb + "a\xe2\x82;s;HEALTHY;1;sig", "agentId: is not valid UTF-8"},      // cut short
      {"SKILL_STATUS:a;s;HEALTHY;x;sig", "SKILL_STATUS timestamp: expected epoch milliseconds"},
      {"SKILL_UNREGISTER:a;s;Shutdown;1;sig", "SKILL_UNREGISTER reason: contains 'h'"},
      {"SKILL_REGISTER_ACK:a;SUCCESS;ok;1;sig;x", "SKILL_REGISTER_ACK: 6 fields, more than 5"},
      {"SKILL_REGISTER_ACK:a;SUCCESS;o\nk;1", "SKILL_REGISTER_ACK message: contains '\\x0a'"},
      {"SKILL_DISCOVER:r;a,b;;;1", "SKILL_DISCOVER capabilityFilter: contains ','"},
      {"SKILL_DISCOVER:r;;;;1;s;x", "SKILL_DISCOVER: 7 fields, more than 6"},
      {"SKILL_DISCOVER:r;;;1", "SKILL_DISCOVER timestamp: missing (4 fields)"},
      {"SKILL_DISCOVER_RESPONSE:r", "SKILL_DISCOVER_RESPONSE skills: missing"},
      {resp + "1707868800000",
       "SKILL_DISCOVER_RESPONSE skills: expected skillId|version|endpoint|capabilities|scenes "
       "or an empty field, got '1707868800000'"},
      {resp + "s|1|h:1|a|b", "SKILL_DISCOVER_RESPONSE timestamp: missing (2 fields)"},
      {resp + "s|1|h:1|a;1", "SKILL_DISCOVER_RESPONSE skill 1 scenes: missing (4 parts)"},
      {resp + "s|1|h:1|a|b|c;1", "SKILL_DISCOVER_RESPONSE skill 1: 6 '|'-separated parts, more"},
      {resp + "s|1|h|a|b;t|1|h|,|;1", "SKILL_DISCOVER_RESPONSE skill 2 capabilities: item 1"},
      {resp + "s||h|a|b;1", "SKILL_DISCOVER_RESPONSE skill 1 version: is empty"},
      {resp + ";s|1|h|a|b;1", "timestamp: expected epoch milliseconds, got 's|1|h|a|b'"},
      {resp + "s|1|h|a|b;1;sig;x", "SKILL_DISCOVER_RESPONSE: 5 fields, more than 4"},
      {resp + "s|1|h|a|b;1;s|g", "SKILL_DISCOVER_RESPONSE signature: contains '|'"},
      {"CHALLENGE:a;abc!;1", "CHALLENGE nonce: contains '!'; allowed: base64 characters"},
      {"CHALLENGE:a;;1", "CHALLENGE nonce: is empty"},
      {"CHALLENGE_RESPONSE:a;bm9u;QQ==,,Qg==;1;s", "CHALLENGE_RESPONSE certificates: has an empty"},
      {"CHALLENGE_RESPONSE:a;bm9u;QQ==,;1;s", "CHALLENGE_RESPONSE certificates: has an empty"},
      {"SKILLNODE_HELLO:" + kNodeId.substr(1) + ";1;1;;;1;s", "nodeId: is 63 bytes, expected 64"},
      {"SKILLNODE_HELLO:A" + kNodeId.substr(1) + ";1;1;;;1;s", "nodeId: contains 'A'"},
      {hello + "4294967296;1;;;1;s",
       "SKILLNODE_HELLO networkId: expected a decimal number up to 4294967295, got '4294967296'"},
      {hello + "1;65536;;;1;s", "dhtPort: expected a decimal number up to 65535, got '65536'"},
      {hello + "1;080;;;1;s", "dhtPort: expected a decimal number up to 65535 without leading"},
  };
  for (const auto& [text, fragment] : cases) {
    INFO(text);
    const auto message = Parse(text);
    REQUIRE_FALSE(message);
    CHECK(message.error().code == transport::ErrorCode::kParse);
    CHECK_THAT(message.error().message, Catch::Contains(fragment));
  }
}

TEST_CASE("Validate refuses fields that would not survive encoding", "[unit]") {
  DiscoveredSkill skill{"s", "1", "h:1", {}, {}};
  const std::vector<std::pair<LanMessage, std::string>> cases = {
      {Register{"a;b", "s", "1", "t", "h", {}, {}, 1, ""}, "SKILL_REGISTER agentId: contains ';'"},
      {Register{"a", "s", "1", "t", "h", {"x,y"}, {}, 1, ""}, "capabilities: item 1 contains ','"},
      {Register{"a", "s", "1", "t", "h", {""}, {}, 1, ""}, "capabilities: item 1 is empty"},
      {Register{"a", "s", "1", "t", "h", {}, {"a b", "c\x01"}, 1, ""}, "scenes: item 2 contains"},
      {RegisterAck{"a", "OK", "x;y", 1, std::nullopt}, "SKILL_REGISTER_ACK message: contains ';'"},
      {Discover{"r", "", "", "", 1, "x;y"}, "SKILL_DISCOVER signature: contains ';'"},
      {Discover{"r", "", "", "", 1, "x|y"}, "SKILL_DISCOVER signature: contains '|'"},
      {DiscoverResponse{"r", {{"s", "1", "h|1", {}, {}}}, 1, std::nullopt},
       "SKILL_DISCOVER_RESPONSE skill 1 endpoint: contains '|'"},
      {DiscoverResponse{"r", std::vector<DiscoveredSkill>(kLanSkillsPerResponseMax + 1, skill), 1,
                        std::nullopt},
       "SKILL_DISCOVER_RESPONSE skills: 65, more than 64"},
      {Status{{"a", "s", "OK ", 1, ""}}, "SKILL_STATUS status: contains ' '"},
      {Hello{"", 1, 1, "", "", 1, ""}, "SKILLNODE_HELLO nodeId: is empty"},
      {Hello{kNodeId, 1, 1, "http://x/;", "", 1, ""}, "SKILLNODE_HELLO httpUrl: contains ';'"},
      {ChallengeResponse{std::string(kLanIdLengthMax, 'a'), std::string(kLanNonceLengthMax, 'n'),
                         std::string(kLanCertificatesLengthMax, 'c'), 1,
                         std::string(kLanSignatureLengthMax, 's')},
       "CHALLENGE_RESPONSE: encodes to 4228 bytes, more than 4096"},
  };
  for (const auto& [message, fragment] : cases) {
    INFO(fragment);
    const auto valid = Validate(message);
    REQUIRE_FALSE(valid);
    CHECK(valid.error().code == transport::ErrorCode::kInvalidArgument);
    CHECK_THAT(valid.error().message, Catch::Contains(fragment));
  }
}

TEST_CASE("Limits hold exactly at their bound on both sides of the codec", "[unit]") {
  auto heartbeat = [](size_t id_length) {
    return "SKILL_HEARTBEAT:" + std::string(id_length, 'a') + ";s;HEALTHY;1;sig";
  };
  CHECK(Parse(heartbeat(kLanIdLengthMax)));
  CHECK_THAT(Parse(heartbeat(kLanIdLengthMax + 1)).error().message,
             Catch::Contains("agentId: is 129 bytes, more than 128"));

  auto names = [](size_t count) {
    std::string list;
    for (size_t i = 0; i < count; ++i) list += (i ? ",c" : "c") + std::to_string(i);
    return list;
  };
  const std::string reg = "SKILL_REGISTER:a;s;1;t;h:1;";
  CHECK(Parse(reg + names(kLanCapabilitiesMax) + ";" + names(kLanScenesMax) + ";1;s"));
  CHECK_THAT(Parse(reg + names(kLanCapabilitiesMax + 1) + ";;1;s").error().message,
             Catch::Contains("SKILL_REGISTER capabilities: 17 items, more than 16"));
  CHECK_THAT(Parse(reg + ";" + names(kLanScenesMax + 1) + ";1;s").error().message,
             Catch::Contains("SKILL_REGISTER scenes: 9 items, more than 8"));
  CHECK_THAT(Parse(reg + std::string(kLanNameLengthMax + 1, 'c') + ";;1;s").error().message,
             Catch::Contains("capabilities: item 1 is 65 bytes, more than 64"));

  std::string skills;
  for (size_t i = 0; i < kLanSkillsPerResponseMax; ++i) skills += "s|1|h||;";
  CHECK(Parse("SKILL_DISCOVER_RESPONSE:r;" + skills + "1"));
  CHECK_THAT(Parse("SKILL_DISCOVER_RESPONSE:r;" + skills + "s|1|h||;1").error().message,
             Catch::Contains("SKILL_DISCOVER_RESPONSE skills: more than 64"));

  // A CHALLENGE_RESPONSE padded by its signature to exactly kLanDatagramMax bytes.
  ChallengeResponse big{std::string(kLanIdLengthMax, 'a'), std::string(kLanNonceLengthMax, 'n'),
                        std::string(kLanCertificatesLengthMax, 'c'), 1707868800000, ""};
  big.signature.assign(kLanDatagramMax - Encode(big).size(), 's');
  REQUIRE(big.signature.size() <= kLanSignatureLengthMax);
  const std::string text = Encode(big);
  REQUIRE(text.size() == kLanDatagramMax);
  CHECK(Validate(big));
  CHECK(Parse(text));
  CHECK_THAT(Parse(text + "s").error().message, Catch::Contains("4097 bytes, more than 4096"));
  big.signature += "s";
  CHECK_FALSE(Validate(big));
  CHECK_THAT(
      Parse("CHALLENGE_RESPONSE:a;n;" + std::string(kLanCertificatesLengthMax + 1, 'c') + ";1;s")
          .error()
          .message,
      Catch::Contains("certificates: is 3501 bytes, more than 3500"));
}

}  // namespace
}  // namespace skillnode::discovery::lan
