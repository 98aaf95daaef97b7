// The skill record's fields for the agent-ecosystem formats: records made before them encode
// byte for byte as they did, a description of 1,024 characters, examples as objects, the origin
// of an imported record, and the size limits inline and in all.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/skill_dht_internal.h"
#include "kademlia/wire/encoding.h"
#include "support/records.h"
#include "support/utf8_text.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Characters;
using testing::FullRecord;
using testing::Publisher;
using testing::SampleRecord;

std::string Hex(const std::vector<uint8_t>& bytes) { return wire::HexEncode(bytes); }

// FullRecord with a certificate and a SKILL.md folder: every field a record could carry before
// the formats' fields.
SkillRecord EveryOldField() {
  SkillRecord r = FullRecord();
  r.descriptor->skill_md_size = 1234;
  r.descriptor->archive_sha256 = Key::Sha256("archive").bytes();
  r.descriptor->archive_size = 4096;
  r.publisher_certificate = std::vector<uint8_t>(40, 0x30);
  return r;
}

RecordOrigin McpOrigin() {
  RecordOrigin o;
  o.format = OriginFormat::kMcpRegistry;
  o.source_url = "https://registry.modelcontextprotocol.io/v0.1/servers/io.github.a%2Fw";
  o.document_sha256 = Key::Sha256("server.json").bytes();
  o.document_size = 812;
  o.signature = OriginSignature::kUnsigned;
  o.publisher_domain = "example.org";
  o.publisher_domain_state = OriginDomainState::kVerified;
  o.mcp_status = McpStatus::kDeprecated;
  o.published_at = "2026-05-01T10:00:00Z";
  o.updated_at = "2026-05-02T11:30:00.123456Z";
  return o;
}

TEST_CASE("records without the formats' fields encode and sign byte for byte as before", "[unit]") {
  // Pinned from the encoding and Ed25519 signatures of the code before these fields existed.
  const std::string sample =
      "dc0010b3736b696c6c6e6f64652d7265636f72642d7631a96167656e742d303031b0736b696c6c2d6f72672d66"
      "6569736875a5302e372e30b0656e74657270726973652d736b696c6cb23139322e3136382e312e3130303a3830"
      "383092ad6f72672d646174612d72656164a9757365722d6175746891a46175746800cf0000018da4e9c40001cd"
      "0e10c200c0c420d89ed2d4e5ca9c004d13ed18ee11f5de7595c99a4cc5c50155c56cb0d3a5e23f";
  const std::string every =
      "dc0011b3736b696c6c6e6f64652d7265636f72642d7631a96167656e742d303031b0736b696c6c2d6f72672d66"
      "6569736875a5302e372e30b0656e74657270726973652d736b696c6cb23139322e3136382e312e3130303a3830"
      "383092ad6f72672d646174612d72656164a9757365722d6175746891a46175746801cf0000018da4e9c40001cd"
      "0e10c2009cbb466569736875204f7267616e697a6174696f6e2053657276696365d93b52656164732074686520"
      "6f7267616e69736174696f6e2063686172743b20616e737765727320757365722d61757468206368616c6c656e"
      "6765732ea464617461a67075626c696392a36f7267a6666569736875b17b2274797065223a226f626a65637422"
      "7db07b2274797065223a226172726179227d91b07b2264657074223a2273616c6573227dc420f87ef1dbdc6997"
      "97e10bf685099f94dba7dd154a4a91d0751910ba4125e83022cd04d2c4200eb3e36bfb24dcd9bb1d1bece15312"
      "16b59539a8fde17ee80224af0653c92aa3cd1000c420d89ed2d4e5ca9c004d13ed18ee11f5de7595c99a4cc5c5"
      "0155c56cb0d3a5e23fc42830303030303030303030303030303030303030303030303030303030303030303030"
      "303030303030";
  const std::string sample_signature =
      "4a1e50fd79ef82c7c75df46f31296d8fa2cb4a3c1e504f8c7fd34954d4f6f4779ef275410e1755b5f8642983a2"
      "0093799170e411b3fae3d0c1ae791fcd3d6002";
  const std::string every_signature =
      "4cd1cec268742c770db03cf6c86df8b4a4ddd373571af7e790d10fefca6cdc5ac5409a3e08c3ebb00e01d83247"
      "2d7f700532b98d8ce9f7bf8339a697b28d3b07";
  for (const auto& [record, bytes, signature] :
       {std::tuple{SampleRecord(), sample, sample_signature},
        {EveryOldField(), every, every_signature}}) {
    const SignedRecord s = SignRecord(record, Publisher()).value();
    CHECK(Hex(s.encoded) == bytes);
    CHECK(wire::HexEncode(s.signature) == signature);
    auto back = VerifyRecord(s.encoded, s.signature);
    REQUIRE(back);
    CHECK(back->record == s.record);
    CHECK(EncodeRecord(back->record) == s.encoded);
    CHECK(s.encoded.size() <= kRecordInlineSizeMax);
  }
}

TEST_CASE("a description of 1,024 CJK characters is carried whole, and one more is refused",
          "[unit]") {
  SkillRecord r = SampleRecord();
  r.descriptor = SkillDescriptor{};
  r.descriptor->description = Characters(1024, 3);  // 3,072 bytes
  const auto s = SignRecord(r, Publisher());
  REQUIRE(s);
  CHECK(s->encoded.size() > kRecordInlineSizeMax);  // it travels by reference
  auto back = VerifyRecord(s->encoded, s->signature);
  REQUIRE(back);
  CHECK(back->record.descriptor->description == r.descriptor->description);
  // 1,024 characters of four bytes each are the most bytes a description holds.
  r.descriptor->description = Characters(1024, 4);
  CHECK(r.descriptor->description.size() == kDescriptionBytesMax);
  CHECK(SignRecord(r, Publisher()));
  r.descriptor->description = Characters(1025, 3);
  auto refused = ValidateRecord(r);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message,
             Catch::StartsWith("descriptor.description: is 1025 characters (3075 bytes)"));
}

TEST_CASE("examples with an object travel as JSON text in their order and come back the same",
          "[unit]") {
  SkillRecord r = SampleRecord();
  r.publisher = Publisher().public_key();
  r.descriptor = SkillDescriptor{};
  const std::vector<uint8_t> without = EncodeRecord(r);
  r.descriptor->examples_json = {R"("find the sales team")",
                                 R"({"name":"by department","input":{"dept":"sales"}})"};
  const std::vector<uint8_t> with = EncodeRecord(r);
  // The descriptor grows from the 9-field array to 13: the folder's fields as 0, nil, 0, then
  // the examples.
  const auto [at_without, at_with] =
      std::mismatch(without.begin(), without.end(), with.begin(), with.end());
  REQUIRE(at_without != without.end());
  CHECK(*at_without == 0x99);
  CHECK(*at_with == 0x9d);
  auto back = DecodeRecord(with);
  REQUIRE(back);
  CHECK(*back == r);
  CHECK(back->descriptor->examples_json == r.descriptor->examples_json);
  CHECK(back->descriptor->examples.empty());
  const auto s = SignRecord(r, Publisher());
  REQUIRE(s);
  CHECK(VerifyRecord(s->encoded, s->signature));
  // With a folder as well, its fields are the folder's.
  r.descriptor->skill_md_sha256 = Key::Sha256("md").bytes();
  r.descriptor->skill_md_size = 10;
  r.descriptor->archive_sha256 = Key::Sha256("tar").bytes();
  r.descriptor->archive_size = 2048;
  auto folder = SignRecord(r, Publisher());
  REQUIRE(folder);
  CHECK(VerifyRecord(folder->encoded, folder->signature)->record == folder->record);
}

TEST_CASE("a descriptor of 13 fields without JSON examples is not canonical and is refused",
          "[unit]") {
  SkillRecord r = SampleRecord();
  r.descriptor = SkillDescriptor{};
  r.descriptor->examples_json = {"{}"};
  std::vector<uint8_t> bytes = EncodeRecord(r);
  const std::vector<uint8_t> one_object = {0x91, 0xa2, '{', '}'};  // ["{}"]
  auto at = std::search(bytes.begin(), bytes.end(), one_object.begin(), one_object.end());
  REQUIRE(at != bytes.end());
  *at = 0x90;  // []
  bytes.erase(at + 1, at + 4);
  auto refused = DecodeRecord(bytes);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("descriptor.examples_json"));
}

TEST_CASE("examples in JSON form are refused with the example named when they break a rule",
          "[unit]") {
  struct Case {
    const char* says;
    std::vector<std::string> text, json;
  };
  const std::string long_object = "{\"input\":\"" + std::string(kExampleLengthMax, 'x') + "\"}";
  const Case cases[] = {
      {"descriptor.examples: text examples and JSON examples are both set", {"a"}, {"{}"}},
      {"descriptor.examples: JSON examples without an object", {}, {R"("a")", R"("b")"}},
      {"descriptor.examples: has 9 entries", {}, std::vector<std::string>(9, "{}")},
      {"descriptor.examples[1]: is not a JSON object or a non-empty string", {}, {"{}", "42"}},
      {"descriptor.examples[1]: is not a JSON object or a non-empty string", {}, {"{}", R"("")"}},
      {"descriptor.examples[1]: is listed twice", {}, {R"({"a":1})", R"({"a":1})"}},
      {"descriptor.examples[0]: is 1036 bytes as compact JSON", {}, {long_object}},
      {"descriptor.examples: has 9 entries", std::vector<std::string>(9, "x"), {}},
      {"descriptor.examples[0]: is 1025 characters", {std::string(1025, 'x')}, {}},
  };
  for (const Case& c : cases) {
    SkillRecord r = SampleRecord();
    r.descriptor = SkillDescriptor{};
    r.descriptor->examples = c.text;
    r.descriptor->examples_json = c.json;
    INFO(c.says);
    auto checked = ValidateRecord(r);
    REQUIRE_FALSE(checked);
    CHECK_THAT(checked.error().message, Catch::StartsWith(c.says));
  }
}

TEST_CASE("an origin is encoded only when present, with or without a certificate", "[unit]") {
  SkillRecord r = SampleRecord();
  r.publisher = Publisher().public_key();
  r.origin = McpOrigin();
  const std::vector<uint8_t> bytes = EncodeRecord(r);
  CHECK((bytes[0] == 0xdc && bytes[1] == 0 && bytes[2] == 18));
  auto back = DecodeRecord(bytes);
  REQUIRE(back);
  CHECK(*back == r);
  CHECK(back->publisher_certificate.empty());  // nil in the certificate's place
  r.publisher_certificate = std::vector<uint8_t>(40, 0x30);
  auto certified = DecodeRecord(EncodeRecord(r));
  REQUIRE(certified);
  CHECK(*certified == r);
  for (OriginFormat format : {OriginFormat::kA2a, OriginFormat::kAgentSkills}) {
    r.origin->format = format;
    r.origin->mcp_status = McpStatus::kNone;
    r.origin->published_at.clear();
    r.origin->updated_at.clear();
    r.origin->signature = OriginSignature::kVerified;
    const auto s = SignRecord(r, Publisher());
    REQUIRE(s);
    CHECK(VerifyRecord(s->encoded, s->signature)->record == s->record);
  }
}

TEST_CASE("an origin writes its domain state only when unverified: old origins read as before",
          "[unit]") {
  SkillRecord r = SampleRecord();
  r.publisher = Publisher().public_key();
  r.origin = McpOrigin();
  r.origin->publisher_domain = "registry.example";
  r.origin->publisher_domain_state = OriginDomainState::kVerified;
  const std::vector<uint8_t> verified = EncodeRecord(r);
  const std::vector<uint8_t> nine = {0x99, 0x01};  // fixarray of 9, mcp-registry
  CHECK(std::search(verified.begin(), verified.end(), nine.begin(), nine.end()) != verified.end());
  CHECK(*DecodeRecord(verified) == r);
  r.origin->publisher_domain_state = OriginDomainState::kUnverified;
  std::vector<uint8_t> unverified = EncodeRecord(r);
  const std::vector<uint8_t> ten = {0x9a, 0x01};  // fixarray of 10
  const auto at = std::search(unverified.begin(), unverified.end(), ten.begin(), ten.end());
  REQUIRE(at != unverified.end());
  CHECK(*DecodeRecord(unverified) == r);
  REQUIRE(unverified.back() == 0x02);  // the state, last: 2 (unverified)
  unverified.back() = 0x01;            // "verified" has the 9-field form only
  CHECK_THAT(DecodeRecord(unverified).error().message,
             Catch::Contains("origin.publisherDomainState"));
}

TEST_CASE("a record's origin is checked field by field, each error naming its field", "[unit]") {
  struct Case {
    const char* says;
    void (*mutate)(RecordOrigin&);
  };
  const Case cases[] = {
      {"origin.sourceUrl: is required", [](RecordOrigin& o) { o.source_url.clear(); }},
      {"origin.sourceUrl: contains", [](RecordOrigin& o) { o.source_url = "https://a b"; }},
      {"origin.documentSize: 0 bytes", [](RecordOrigin& o) { o.document_size = 0; }},
      {"origin.publisherDomain: 'Example.org'",
       [](RecordOrigin& o) { o.publisher_domain = "Example.org"; }},
      {"origin.status: an mcp-registry origin needs one",
       [](RecordOrigin& o) { o.mcp_status = McpStatus::kNone; }},
      {"origin.updatedAt: 'yesterday'", [](RecordOrigin& o) { o.updated_at = "yesterday"; }},
      {"origin.status: only an mcp-registry origin",
       [](RecordOrigin& o) { o.format = OriginFormat::kA2a; }},
  };
  for (const Case& c : cases) {
    SkillRecord r = SampleRecord();
    r.origin = McpOrigin();
    c.mutate(*r.origin);
    INFO(c.says);
    auto checked = ValidateRecord(r);
    REQUIRE_FALSE(checked);
    CHECK_THAT(checked.error().message, Catch::StartsWith(c.says));
  }
  // The decoder refuses enum values past the known ones.
  SkillRecord r = SampleRecord();
  r.origin = McpOrigin();
  std::vector<uint8_t> bytes = EncodeRecord(r);
  const std::vector<uint8_t> origin_then_format = {0x99, 0x01};  // fixarray of 9, mcp-registry
  const auto format_at =
      std::search(bytes.begin(), bytes.end(), origin_then_format.begin(), origin_then_format.end());
  REQUIRE(format_at != bytes.end());
  format_at[1] = 0x07;
  CHECK_THAT(DecodeRecord(bytes).error().message, Catch::Contains("origin.format"));
}

TEST_CASE(
    "a record imported from the MCP Registry, an Agent Skills index or an A2A card is under its "
    "format key",
    "[unit]") {
  SkillRecord r = SampleRecord();
  r.origin = McpOrigin();
  CHECK(FormatsOf(r) == std::vector<RecordFormat>{RecordFormat::kMcpServer});
  r.skill_type = std::string(kMcpServerSkillType);  // listed once either way
  CHECK(FormatsOf(r) == std::vector<RecordFormat>{RecordFormat::kMcpServer});
  r.origin->format = OriginFormat::kAgentSkills;
  CHECK(FormatsOf(r) ==
        std::vector<RecordFormat>{RecordFormat::kMcpServer, RecordFormat::kAgentSkill});
  CHECK(skill_dht_internal::BelongsUnder(r, FormatKey(RecordFormat::kAgentSkill)));
  r.skill_type = "tool-skill";
  r.origin->format = OriginFormat::kA2a;
  CHECK(FormatsOf(r) == std::vector<RecordFormat>{RecordFormat::kA2aAgent});
  CHECK(skill_dht_internal::BelongsUnder(r, FormatKey(RecordFormat::kA2aAgent)));
  r.origin.reset();
  CHECK(FormatsOf(r).empty());
  r.skill_type = std::string(kA2aAgentSkillType);
  CHECK(FormatsOf(r) == std::vector<RecordFormat>{RecordFormat::kA2aAgent});
}

TEST_CASE("a record of exactly the encoded limit is taken and one byte more is refused", "[unit]") {
  SkillRecord r = SampleRecord();
  r.publisher = Publisher().public_key();
  r.descriptor = SkillDescriptor{};
  for (int i = 0; i < 7; ++i) r.descriptor->examples.push_back(std::string(1000, 'a' + i));
  r.descriptor->input_schema = std::string(500, 'i');
  r.descriptor->description = std::string(300, 'd');  // a str16 from here on
  const size_t base = EncodeRecord(r).size();
  REQUIRE(base < kRecordEncodedSizeMax);
  r.descriptor->description = std::string(300 + kRecordEncodedSizeMax - base, 'd');
  REQUIRE(EncodeRecord(r).size() == kRecordEncodedSizeMax);
  CHECK(SignRecord(r, Publisher()));
  r.descriptor->description += 'd';
  auto refused = SignRecord(r, Publisher());
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message,
             Catch::StartsWith("record: encodes to 8193 bytes, more than 8192"));
  CHECK_FALSE(DecodeRecord(EncodeRecord(r)));
}

}  // namespace
}  // namespace skillnode::kademlia::store
