#include "discovery/lan/lan_message.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lan_message_samples.h"
#include "transport/rng.h"

namespace skillnode::discovery::lan {
namespace {

using message_test::kNodeId;
using message_test::kSpecExamples;

// Valid messages of every type, drawn from a seeded Rng: lengths favour the empty, the
// shortest and the longest allowed, and text mixes ASCII with two-, three- and four-byte UTF-8.
class MessageMaker {
 public:
  explicit MessageMaker(uint64_t seed) : rng_(seed) {}

  LanMessage Make(LanType type) {
    switch (type) {
      case LanType::kRegister:
        return Register{Id(),
                        Id(),
                        Name(kLanVersionLengthMax),
                        Name(kLanTypeLengthMax),
                        Name(kLanEndpointLengthMax),
                        Names(kLanCapabilitiesMax),
                        Names(kLanScenesMax),
                        Timestamp(),
                        Signature()};
      case LanType::kRegisterAck:
        return RegisterAck{Id(), Upper(), Text(kLanMessageTextMax), Timestamp(), MaybeSignature()};
      case LanType::kUnregister:
        return Unregister{Id(), Id(), Upper(), Timestamp(), Signature()};
      case LanType::kDiscover:
        return Discover{Id(),
                        Filter(kLanNameLengthMax),
                        Filter(kLanNameLengthMax),
                        Filter(kLanTypeLengthMax),
                        Timestamp(),
                        MaybeSignature()};
      case LanType::kDiscoverResponse:
        return Response();
      case LanType::kHeartbeat:
        return Heartbeat{Id(), Id(), Upper(), Timestamp(), Signature()};
      case LanType::kStatus:
        return Status{{Id(), Id(), Upper(), Timestamp(), Signature()}};
      case LanType::kChallenge:
        return Challenge{Id(), Base64(1, kLanNonceLengthMax), Timestamp(), MaybeSignature()};
      case LanType::kChallengeResponse:
        return ChallengeResponse{Id(), Base64(1, kLanNonceLengthMax), Certificates(), Timestamp(),
                                 Signature()};
      case LanType::kHello:
        return Hello{Hex64(),
                     static_cast<uint32_t>(Edgy(UINT32_MAX)),
                     static_cast<uint16_t>(Edgy(UINT16_MAX)),
                     Text(kLanEndpointLengthMax),
                     Certificates(),
                     Timestamp(),
                     Signature()};
    }
    return Register{};
  }

 private:
  // 0, 1, max or anything between.
  uint64_t Edgy(uint64_t max) {
    switch (rng_.Below(5)) {
      case 0:
        return 0;
      case 1:
        return std::min<uint64_t>(1, max);
      case 2:
        return max;
      default:
        return max == UINT64_MAX ? rng_.Next64() : rng_.Below(max + 1);
    }
  }
  size_t Length(size_t min, size_t max) { return min + Edgy(max - min); }
  std::string FromUnits(const std::vector<std::string>& units, size_t min, size_t max) {
    const size_t length = std::max<size_t>(Length(min, max), min);
    std::string out;
    while (out.size() < length) {
      const std::string& unit = units[rng_.Below(units.size())];
      if (out.size() + unit.size() > max) break;
      out += unit;
    }
    while (out.size() < min) out += 'x';
    return out;
  }
  std::string Name(size_t max, size_t min = 1) {
    static const std::vector<std::string> kUnits = {"a",
                                                    "Z",
                                                    "7",
                                                    "-",
                                                    ".",
                                                    ":",
                                                    "/",
                                                    "_",
                                                    " ",
                                                    "\xc3\xa9",
                                                    "\xe2\x82\xac",
                                                    "\xf0\x9d\x84\x9e"};
    return FromUnits(kUnits, min, max);
  }
  std::string Text(size_t max) {
    static const std::vector<std::string> kUnits = {"a", " ", ",", "|", "=", "\"", "\xc3\xa9"};
    return FromUnits(kUnits, 0, max);
  }
  std::string Base64(size_t min, size_t max) {
    static const std::vector<std::string> kUnits = {"A", "z", "0", "+", "/", "="};
    return FromUnits(kUnits, min, max);
  }
  std::string Upper() { return FromUnits({"A", "Z", "_"}, 1, kLanNameLengthMax); }
  std::string Id() { return Name(kLanIdLengthMax); }
  std::string Filter(size_t max) { return rng_.Chance(0.3) ? "" : Name(max); }
  std::string Hex64() { return FromUnits({"0", "9", "a", "f"}, 64, 64); }
  std::vector<std::string> Names(size_t count_max) {
    std::vector<std::string> names(Length(0, count_max));
    for (auto& name : names) name = Name(kLanNameLengthMax);
    return names;
  }
  std::string Certificates() {
    std::string out;
    for (size_t i = rng_.Below(4); i > 0; --i) out += (out.empty() ? "" : ",") + Base64(1, 900);
    return out;
  }
  uint64_t Timestamp() { return Edgy(UINT64_MAX); }
  std::string Signature() {
    static const std::vector<std::string> kUnits = {"M", "e", "0", "+", "/", "=", ".", "~"};
    return FromUnits(kUnits, 0, kLanSignatureLengthMax);
  }
  std::optional<std::string> MaybeSignature() {
    return rng_.Chance(0.5) ? std::optional<std::string>(Signature()) : std::nullopt;
  }
  // Skills are added while the datagram still fits.
  DiscoverResponse Response() {
    DiscoverResponse response{Id(), {}, Timestamp(), MaybeSignature()};
    for (size_t i = rng_.Below(8); i > 0; --i) {
      response.skills.push_back({Id(), Name(kLanVersionLengthMax), Name(kLanEndpointLengthMax),
                                 Names(4), Names(kLanScenesMax)});
      if (Encode(response).size() > kLanDatagramMax) {
        response.skills.pop_back();
        break;
      }
    }
    return response;
  }

  transport::Rng rng_;
};

TEST_CASE("Every example datagram in the spec parses and encodes back byte for byte", "[unit]") {
  for (const std::string& example : kSpecExamples) {
    INFO(example);
    const auto message = Parse(example);
    REQUIRE(message);
    CHECK(Encode(*message) == example);
    CHECK(Validate(*message));
  }
}

TEST_CASE("The spec's registration example parses into its fields", "[unit]") {
  const auto message = Parse(kSpecExamples[0]);
  REQUIRE(message);
  const auto* r = std::get_if<Register>(&*message);
  REQUIRE(r != nullptr);
  CHECK(r->agent_id == "agent-001");
  CHECK(r->skill_id == "skill-org-feishu");
  CHECK(r->version == "0.7.0");
  CHECK(r->skill_type == "enterprise-skill");
  CHECK(r->endpoint == "192.168.1.100:8080");
  CHECK(r->capabilities == std::vector<std::string>{"org-data-read", "user-auth"});
  CHECK(r->scenes == std::vector<std::string>{"auth"});
  CHECK(r->timestamp_ms == 1707868800000);
  CHECK(r->signature == "a1b2c3d4e5f6...");
  CHECK(TypeOf(*message) == LanType::kRegister);
}

TEST_CASE("The spec's discovery response lists two skills and carries no signature", "[unit]") {
  const auto message = Parse(kSpecExamples[2]);
  REQUIRE(message);
  const auto* response = std::get_if<DiscoverResponse>(&*message);
  REQUIRE(response != nullptr);
  CHECK(response->requester_id == "agent-002");
  REQUIRE(response->skills.size() == 2);
  CHECK(response->skills[1] == DiscoveredSkill{"skill-org-dingding",
                                               "0.7.0",
                                               "192.168.1.101:8080",
                                               {"org-data-read", "user-auth"},
                                               {"auth"}});
  CHECK(response->timestamp_ms == 1707868800000);
  CHECK_FALSE(response->signature.has_value());
  CHECK(SignatureOf(*message).empty());
}

TEST_CASE("Each message type encodes to its documented layout and parses back", "[unit]") {
  const std::vector<std::pair<LanMessage, std::string>> cases = {
      {Register{"a", "s", "1.0.0", "tool-skill", "h:1", {}, {}, 5, ""},
       "SKILL_REGISTER:a;s;1.0.0;tool-skill;h:1;;;5;"},
      {RegisterAck{"a", "SUCCESS", "Registered, thanks", 6, std::nullopt},
       "SKILL_REGISTER_ACK:a;SUCCESS;Registered, thanks;6"},
      {RegisterAck{"a", "DUPLICATE", "", 6, "c2ln"}, "SKILL_REGISTER_ACK:a;DUPLICATE;;6;c2ln"},
      {Unregister{"a", "s", "SHUTDOWN", 7, "c2ln"}, "SKILL_UNREGISTER:a;s;SHUTDOWN;7;c2ln"},
      {Discover{"r", "", "", "", 8, std::nullopt}, "SKILL_DISCOVER:r;;;;8"},
      {Discover{"r", "cap", "scene", "tool-skill", 8, ""},
       "SKILL_DISCOVER:r;cap;scene;tool-skill;8;"},
      {DiscoverResponse{"r", {}, 9, std::nullopt}, "SKILL_DISCOVER_RESPONSE:r;;9"},
      {DiscoverResponse{"r", {}, 9, "c2ln"}, "SKILL_DISCOVER_RESPONSE:r;;9;c2ln"},
      {DiscoverResponse{"r", {{"s", "1", "h:1", {}, {}}}, 9, ""},
       "SKILL_DISCOVER_RESPONSE:r;s|1|h:1||;9;"},
      {DiscoverResponse{"r",
                        {{"s", "1", "h:1", {"a", "b"}, {"x"}}, {"t", "2", "h:2", {}, {"y"}}},
                        9,
                        std::nullopt},
       "SKILL_DISCOVER_RESPONSE:r;s|1|h:1|a,b|x;t|2|h:2||y;9"},
      {Heartbeat{"a", "s", "DEGRADED", 10, "c2ln"}, "SKILL_HEARTBEAT:a;s;DEGRADED;10;c2ln"},
      {Status{{"a", "s", "MAINTENANCE", 11, ""}}, "SKILL_STATUS:a;s;MAINTENANCE;11;"},
      {Challenge{"a", "bm9uY2U=", 12, std::nullopt}, "CHALLENGE:a;bm9uY2U=;12"},
      {Challenge{"a", "bm9uY2U=", 12, "c2ln"}, "CHALLENGE:a;bm9uY2U=;12;c2ln"},
      {ChallengeResponse{"a", "bm9uY2U=", "Y2VydA==,aW50", 13, "c2ln"},
       "CHALLENGE_RESPONSE:a;bm9uY2U=;Y2VydA==,aW50;13;c2ln"},
      {ChallengeResponse{"a", "bm9uY2U=", "", 13, ""}, "CHALLENGE_RESPONSE:a;bm9uY2U=;;13;"},
      {Hello{kNodeId, 4294967295u, 65535, "http://10.0.0.2:8080/", "Y2VydA==", 14, "c2ln"},
       "SKILLNODE_HELLO:" + kNodeId + ";4294967295;65535;http://10.0.0.2:8080/;Y2VydA==;14;c2ln"},
      {Hello{kNodeId, 0, 0, "", "", 0, ""}, "SKILLNODE_HELLO:" + kNodeId + ";0;0;;;0;"},
  };
  for (const auto& [message, text] : cases) {
    INFO(text);
    CHECK(Validate(message));
    CHECK(Encode(message) == text);
    const auto parsed = Parse(text);
    REQUIRE(parsed);
    CHECK(*parsed == message);
  }
}

TEST_CASE("Random valid messages of every type survive encoding and parsing unchanged", "[unit]") {
  MessageMaker maker(20240214);
  for (int round = 0; round < 300; ++round) {
    for (int t = 0; t <= static_cast<int>(LanType::kHello); ++t) {
      const LanMessage message = maker.Make(static_cast<LanType>(t));
      const std::string text = Encode(message);
      INFO(text);
      REQUIRE(Validate(message));
      const auto parsed = Parse(text);
      REQUIRE(parsed);
      CHECK(*parsed == message);
      CHECK(TypeOf(*parsed) == static_cast<LanType>(t));
      if (!SignatureOf(message).empty()) {
        CHECK(SignedBytes(text).size() + 1 + SignatureOf(message).size() == text.size());
      }
    }
  }
}

TEST_CASE("A present but empty optional signature stays apart from an absent one", "[unit]") {
  const auto absent = Parse("CHALLENGE:a;bm9uY2U=;12");
  const auto empty = Parse("CHALLENGE:a;bm9uY2U=;12;");
  REQUIRE(absent);
  REQUIRE(empty);
  CHECK_FALSE(std::get<Challenge>(*absent).signature.has_value());
  CHECK(std::get<Challenge>(*empty).signature == std::optional<std::string>(""));
  CHECK_FALSE(*absent == *empty);
  CHECK(SignatureOf(*absent).empty());
  CHECK(SignatureOf(*empty).empty());
}

TEST_CASE("SignedBytes is the datagram before its final ';' and the signature follows it",
          "[unit]") {
  CHECK(SignedBytes(kSpecExamples[5]) ==
        "SKILL_HEARTBEAT:agent-001;skill-org-feishu;HEALTHY;1707868805000");
  CHECK(SignedBytes("SKILL_DISCOVER:r;;;;8;") == "SKILL_DISCOVER:r;;;;8");
  CHECK(SignedBytes("no separator") == "no separator");

  // Signing an optional-signature message: encode it with an empty signature field, sign the
  // bytes before the final ';', then set the signature.
  LanMessage message = Discover{"r", "cap", "", "", 8, std::nullopt};
  SetSignature(message, "");
  const std::string unsigned_text = Encode(message);
  const std::string_view signed_bytes = SignedBytes(unsigned_text);
  CHECK(signed_bytes == "SKILL_DISCOVER:r;cap;;;8");
  SetSignature(message, "c2ln");
  CHECK(SignatureOf(message) == "c2ln");
  const std::string text = Encode(message);
  CHECK(text == std::string(signed_bytes) + ";c2ln");
  CHECK(SignedBytes(text) == signed_bytes);
}

TEST_CASE("LanTypeName names every type as its datagram does", "[unit]") {
  const std::vector<std::pair<LanType, std::string_view>> names = {
      {LanType::kRegister, "SKILL_REGISTER"},
      {LanType::kRegisterAck, "SKILL_REGISTER_ACK"},
      {LanType::kUnregister, "SKILL_UNREGISTER"},
      {LanType::kDiscover, "SKILL_DISCOVER"},
      {LanType::kDiscoverResponse, "SKILL_DISCOVER_RESPONSE"},
      {LanType::kHeartbeat, "SKILL_HEARTBEAT"},
      {LanType::kStatus, "SKILL_STATUS"},
      {LanType::kChallenge, "CHALLENGE"},
      {LanType::kChallengeResponse, "CHALLENGE_RESPONSE"},
      {LanType::kHello, "SKILLNODE_HELLO"},
  };
  for (const auto& [type, name] : names) CHECK(LanTypeName(type) == name);
  CHECK(TypeOf(Status{}) == LanType::kStatus);
  CHECK(TypeOf(Heartbeat{}) == LanType::kHeartbeat);
  CHECK(TypeOf(Hello{}) == LanType::kHello);
}

TEST_CASE("Parse reads only the bytes it is given", "[unit]") {
  const std::string buffer = "SKILL_HEARTBEAT:a;s;HEALTHY;1;sig;trailing bytes";
  const auto message = Parse(std::string_view(buffer).substr(0, buffer.find(";trailing")));
  REQUIRE(message);
  CHECK(SignatureOf(*message) == "sig");
}

}  // namespace
}  // namespace skillnode::discovery::lan
