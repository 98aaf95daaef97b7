#include "kademlia/store/record/skill_record.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "kademlia/store/skill_dht_internal.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::FullRecord;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

TEST_CASE("a record round-trips through its canonical encoding", "[unit]") {
  for (const SkillRecord& original : {SampleRecord(), FullRecord()}) {
    SkillRecord r = original;
    r.publisher = Publisher().public_key();
    const auto bytes = EncodeRecord(r);
    auto back = DecodeRecord(bytes);
    REQUIRE(back);
    CHECK(*back == r);
    CHECK(EncodeRecord(*back) == bytes);  // the same record always encodes the same way
  }
}

TEST_CASE("a signed record verifies and keeps its bytes", "[unit]") {
  const Identity publisher = Publisher();
  const SignedRecord s = Signed(FullRecord(), publisher);
  CHECK(s.record.publisher == publisher.public_key());
  auto verified = VerifyRecord(s.encoded, s.signature);
  REQUIRE(verified);
  CHECK(verified->record == s.record);
  CHECK(*verified == s);
}

TEST_CASE("a record with one flipped bit anywhere is refused", "[unit]") {
  const SignedRecord s = Signed(FullRecord(), Publisher());
  for (size_t bit = 0; bit < s.encoded.size() * 8; ++bit) {
    auto bytes = s.encoded;
    bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    INFO("bit " << bit);
    CHECK_FALSE(VerifyRecord(bytes, s.signature));
  }
  for (size_t bit = 0; bit < s.signature.size() * 8; bit += 7) {
    Signature sig = s.signature;
    sig[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    CHECK_FALSE(VerifyRecord(s.encoded, sig));
  }
}

TEST_CASE("a record signed by another key than it names is refused", "[unit]") {
  SignedRecord s = Signed(SampleRecord(), Publisher("a"));
  s.signature = Publisher("b").Sign(s.encoded);
  auto verified = VerifyRecord(s.encoded, s.signature);
  REQUIRE_FALSE(verified);
  CHECK_THAT(verified.error().message, Catch::Contains("signature"));
}

TEST_CASE("records over any limit are refused with the field named", "[unit]") {
  struct Case {
    const char* says;
    void (*mutate)(SkillRecord&);
  };
  const Case cases[] = {
      {"agentId: is required", [](SkillRecord& r) { r.agent_id.clear(); }},
      {"skillId: is 129", [](SkillRecord& r) { r.skill_id = std::string(129, 's'); }},
      {"agentId: contains", [](SkillRecord& r) { r.agent_id = "a;b"; }},
      {"skillId: contains", [](SkillRecord& r) { r.skill_id = "a,b"; }},
      {"endpoint: contains", [](SkillRecord& r) { r.endpoint = "h|p"; }},
      {"version: contains", [](SkillRecord& r) { r.version = "1.0\n"; }},
      {"capabilities: has 17",
       [](SkillRecord& r) {
         r.capabilities.clear();
         for (int i = 0; i < 17; ++i) r.capabilities.push_back("c" + std::to_string(i));
       }},
      {"capabilities: needs at least one", [](SkillRecord& r) { r.capabilities.clear(); }},
      {"capabilities[1]: 'x' is listed twice",
       [](SkillRecord& r) {
         r.capabilities = {"x", "x"};
       }},
      {"scenes[0]: is 65", [](SkillRecord& r) { r.scenes = {std::string(65, 'e')}; }},
      {"ttl: 10 s", [](SkillRecord& r) { r.ttl_seconds = 10; }},
      {"reason: only a tombstone", [](SkillRecord& r) { r.reason = UnregisterReason::kError; }},
      {"reason: a tombstone needs", [](SkillRecord& r) { r.tombstone = true; }},
      {"descriptor.description: is 1025 characters",
       [](SkillRecord& r) {
         r.descriptor = SkillDescriptor{};
         r.descriptor->description = std::string(1025, 'd');
       }},
      {"record: encodes to",
       [](SkillRecord& r) {
         r.descriptor = SkillDescriptor{};
         r.descriptor->description = std::string(1000, 'd');
         r.descriptor->input_schema = std::string(500, 'i');
         for (int i = 0; i < 7; ++i) r.descriptor->examples.push_back(std::string(1000, 'a' + i));
       }},
  };
  for (const Case& c : cases) {
    SkillRecord r = SampleRecord();
    c.mutate(r);
    INFO(c.says);
    auto signed_record = SignRecord(r, Publisher());
    REQUIRE_FALSE(signed_record);
    CHECK_THAT(signed_record.error().message, Catch::Contains(c.says));
  }
}

TEST_CASE("a tombstone needs no content but a reason", "[unit]") {
  SkillRecord r = SampleRecord();
  r.tombstone = true;
  r.reason = UnregisterReason::kShutdown;
  r.endpoint.clear();
  r.version.clear();
  CHECK(SignRecord(r, Publisher()));
}

TEST_CASE("malformed record bytes are errors, never exceptions", "[unit]") {
  const SignedRecord s = Signed(FullRecord(), Publisher());
  for (size_t n = 0; n < s.encoded.size(); ++n) {
    CHECK_FALSE(DecodeRecord(std::span(s.encoded).first(n)));
  }
  auto trailing = s.encoded;
  trailing.push_back(0xc0);
  CHECK_FALSE(DecodeRecord(trailing));
  const std::vector<uint8_t> map_not_array = {0x80};
  CHECK_FALSE(DecodeRecord(map_not_array));
  const std::vector<uint8_t> huge_array = {0xdd, 0xff, 0xff, 0xff, 0xff};
  CHECK_FALSE(DecodeRecord(huge_array));
  CHECK_FALSE(DecodeRecord(std::vector<uint8_t>(kRecordEncodedSizeMax + 1, 0x90)));
}

TEST_CASE("a non-canonical encoding of a valid record is refused", "[unit]") {
  // msgpack allows a small number in several widths; the canonical encoding uses the shortest.
  // Re-encode the sequence number 1 (fixint 0x01) as uint8 (0xcc 0x01): the same values,
  // other bytes, so a second signature over the same record would exist.
  const Identity publisher = Publisher();
  SkillRecord r = SampleRecord();
  r.publisher = publisher.public_key();
  auto bytes = EncodeRecord(r);
  const std::vector<uint8_t> sequence_then_ttl = {0x01, 0xcd, 0x0e, 0x10};  // 1, then 3600
  auto at =
      std::search(bytes.begin(), bytes.end(), sequence_then_ttl.begin(), sequence_then_ttl.end());
  REQUIRE(at != bytes.end());
  bytes.insert(at, 0xcc);
  REQUIRE(DecodeRecord(bytes));  // still decodes to the same values
  CHECK(*DecodeRecord(bytes) == r);
  auto verified = VerifyRecord(bytes, publisher.Sign(bytes));
  REQUIRE_FALSE(verified);
  CHECK_THAT(verified.error().message, Catch::Contains("canonical"));
}

TEST_CASE(
    "a record is published under the seed's keys and the capability, scene, skill and "
    "agent keys",
    "[unit]") {
  const SkillRecord r = SampleRecord();
  const auto keys = RecordKeys(r);
  CHECK(keys.size() == 7);  // 2 x (skill:cap, capability:cap) + scene + skill + agent
  const Key seed_key = Key::Sha256("skill-org-feishu:org-data-read");
  CHECK(std::find(keys.begin(), keys.end(), seed_key) != keys.end());
  CHECK(SkillCapabilityKey("skill-org-feishu", "org-data-read") == seed_key);
  CHECK(std::find(keys.begin(), keys.end(), Key::Sha256("capability:user-auth")) != keys.end());
  CHECK(std::find(keys.begin(), keys.end(), Key::Sha256("scene:auth")) != keys.end());
  CHECK(std::find(keys.begin(), keys.end(), Key::Sha256("skill:skill-org-feishu")) != keys.end());
  CHECK(AgentKey(r.agent_id) == Key::Sha256("agent:" + r.agent_id));
  CHECK(std::find(keys.begin(), keys.end(), AgentKey(r.agent_id)) != keys.end());
  CHECK(std::is_sorted(keys.begin(), keys.end()));
}

TEST_CASE("an MCP server and a SKILL.md skill are also under their format's key", "[unit]") {
  SkillRecord r = SampleRecord();
  CHECK(FormatsOf(r).empty());
  r.skill_type = std::string(kMcpServerSkillType);
  CHECK(FormatsOf(r) == std::vector<RecordFormat>{RecordFormat::kMcpServer});
  r.descriptor = SkillDescriptor{};
  r.descriptor->skill_md_sha256 = std::array<uint8_t, 32>{};
  CHECK(FormatsOf(r) ==
        std::vector<RecordFormat>{RecordFormat::kMcpServer, RecordFormat::kAgentSkill});
  CHECK(FormatKey(RecordFormat::kMcpServer) == Key::Sha256("format:mcp-server"));
  CHECK(FormatKey(RecordFormat::kAgentSkill) == Key::Sha256("format:agent-skill"));
  const auto keys = RecordKeys(r);
  CHECK(keys.size() == 9);
  for (RecordFormat format : FormatsOf(r)) {
    CHECK(std::find(keys.begin(), keys.end(), FormatKey(format)) != keys.end());
    CHECK(skill_dht_internal::BelongsUnder(r, FormatKey(format)));
  }
}

TEST_CASE("a record whose descriptor names a capability type is also under its type key",
          "[unit]") {
  SkillRecord r = SampleRecord();
  r.descriptor = SkillDescriptor{};
  CHECK(RecordKeys(r).size() == 7);  // an empty capability type adds no key
  r.descriptor->capability_type = "api";
  const auto keys = RecordKeys(r);
  CHECK(keys.size() == 8);
  CHECK(CapabilityTypeKey("api") == Key::Sha256("type:api"));
  CHECK(std::find(keys.begin(), keys.end(), Key::Sha256("type:api")) != keys.end());
  CHECK(std::is_sorted(keys.begin(), keys.end()));
  // Holders take the record under every one of its keys, and under no other.
  for (const Key& key : keys) CHECK(skill_dht_internal::BelongsUnder(r, key));
  CHECK_FALSE(skill_dht_internal::BelongsUnder(r, CapabilityTypeKey("tool")));
  r.descriptor->capability_type.clear();
  CHECK_FALSE(skill_dht_internal::BelongsUnder(r, CapabilityTypeKey("api")));
}

TEST_CASE("status and reason names parse both ways and reject others", "[unit]") {
  for (auto s : {SkillStatus::kHealthy, SkillStatus::kDegraded, SkillStatus::kUnhealthy,
                 SkillStatus::kMaintenance}) {
    CHECK(*ParseSkillStatus(SkillStatusName(s)) == s);
  }
  for (auto r : {UnregisterReason::kShutdown, UnregisterReason::kError,
                 UnregisterReason::kMaintenance, UnregisterReason::kUpgrade}) {
    CHECK(*ParseUnregisterReason(UnregisterReasonName(r)) == r);
  }
  CHECK_FALSE(ParseSkillStatus("healthy"));
  CHECK_FALSE(ParseUnregisterReason("NONE"));
  CHECK_THAT(ParseUnregisterReason("BYE").error().message, Catch::Contains("SHUTDOWN"));
}

}  // namespace
}  // namespace skillnode::kademlia::store

namespace skillnode::kademlia::store {
namespace {

TEST_CASE("a publisher certificate travels in the record, and records without one are unchanged",
          "[unit]") {
  SkillRecord plain = SampleRecord();
  plain.publisher = Publisher().public_key();
  const std::vector<uint8_t> plain_bytes = EncodeRecord(plain);
  // An array of 16 fields: the encoding records without a certificate have always had.
  REQUIRE(plain_bytes.size() > 3);
  CHECK((plain_bytes[0] == 0xdc && plain_bytes[1] == 0 && plain_bytes[2] == 16));
  SkillRecord certified = plain;
  certified.publisher_certificate = std::vector<uint8_t>(400, 0x30);
  const std::vector<uint8_t> bytes = EncodeRecord(certified);
  CHECK(bytes.size() > plain_bytes.size() + 400);
  CHECK((bytes[0] == 0xdc && bytes[1] == 0 && bytes[2] == 17));
  auto back = DecodeRecord(bytes);
  REQUIRE(back);
  CHECK(back->publisher_certificate == certified.publisher_certificate);
  CHECK(*back == certified);
  auto signed_record = SignRecord(certified, Publisher());
  REQUIRE(signed_record);
  CHECK(VerifyRecord(signed_record->encoded, signed_record->signature));
  certified.publisher_certificate.resize(kPublisherCertificateMax + 1);
  auto too_big = ValidateRecord(certified);
  REQUIRE_FALSE(too_big);
  CHECK(too_big.error().message.starts_with("publisherCertificate: "));
}

TEST_CASE(
    "a SKILL.md folder's digests and sizes travel in the descriptor, and descriptors without "
    "one are unchanged",
    "[unit]") {
  SkillRecord plain = FullRecord();
  plain.publisher = Publisher().public_key();
  const std::vector<uint8_t> plain_bytes = EncodeRecord(plain);
  SkillRecord folder = plain;
  folder.descriptor->skill_md_size = 1234;
  folder.descriptor->archive_sha256 = Key::Sha256("archive").bytes();
  folder.descriptor->archive_size = 4096;
  const std::vector<uint8_t> bytes = EncodeRecord(folder);
  // The folder adds three fields to the descriptor's array and nothing else changes: a
  // descriptor without them is the 9-field array it always was (0x99 = fixarray of 9).
  const auto [at_plain, at_folder] =
      std::mismatch(plain_bytes.begin(), plain_bytes.end(), bytes.begin(), bytes.end());
  REQUIRE(at_plain != plain_bytes.end());
  CHECK(*at_plain == 0x99);   // the descriptor: fixarray of 9, as before
  CHECK(*at_folder == 0x9c);  // fixarray of 12
  CHECK(bytes.size() > plain_bytes.size() + 32);
  auto back = DecodeRecord(bytes);
  REQUIRE(back);
  CHECK(*back == folder);
  auto signed_record = SignRecord(folder, Publisher());
  REQUIRE(signed_record);
  CHECK(signed_record->encoded.size() <= kRecordEncodedSizeMax);
  CHECK(VerifyRecord(signed_record->encoded, signed_record->signature));

  SkillRecord bad = folder;
  bad.descriptor->skill_md_sha256.reset();
  CHECK(ValidateRecord(bad).error().message.starts_with("descriptor.skill_md_sha256: "));
  bad = folder;
  bad.descriptor->archive_size = bad.descriptor->skill_md_size;
  CHECK(ValidateRecord(bad).error().message.starts_with("descriptor.archive_size: "));
  bad = folder;
  bad.descriptor->skill_md_size = kSkillMdBytesMax + 1;
  CHECK(ValidateRecord(bad).error().message.starts_with("descriptor.skill_md_size: "));
  bad = plain;
  bad.descriptor->archive_size = 10;  // sizes without the archive's digest
  CHECK(ValidateRecord(bad).error().message.starts_with("descriptor.archive_sha256: "));
}

TEST_CASE("publisher domains travel last in the record, and records without any are unchanged",
          "[unit]") {
  SkillRecord plain = SampleRecord();
  plain.publisher = Publisher().public_key();
  SkillRecord claims = plain;
  claims.publisher_domains = {"pub.example", "skills.example.org"};
  const std::vector<uint8_t> bytes = EncodeRecord(claims);
  // 19 fields: the certificate and the origin are nil, then the domains.
  CHECK((bytes[0] == 0xdc && bytes[1] == 0 && bytes[2] == 19));
  auto back = DecodeRecord(bytes);
  REQUIRE(back);
  CHECK(*back == claims);
  CHECK_FALSE(back->origin);
  CHECK(back->publisher_certificate.empty());
  auto signed_record = SignRecord(claims, Publisher());
  REQUIRE(signed_record);
  CHECK(VerifyRecord(signed_record->encoded, signed_record->signature));
  // Beside a certificate and an origin the domains still come last.
  SkillRecord full = claims;
  full.publisher_certificate = std::vector<uint8_t>(40, 0x30);
  full.origin = RecordOrigin{};
  full.origin->source_url = "https://pub.example/card";
  full.origin->document_size = 10;
  auto full_back = DecodeRecord(EncodeRecord(full));
  REQUIRE(full_back);
  CHECK(*full_back == full);
  // A record without domains keeps the 16-field encoding it always had.
  CHECK(EncodeRecord(plain)[2] == 16);

  SkillRecord bad = claims;
  bad.publisher_domains = {"pub.example", "pub.example"};
  CHECK(ValidateRecord(bad).error().message.starts_with("publisherDomains[1]: "));
  bad.publisher_domains = {"localhost"};
  CHECK(ValidateRecord(bad).error().message.starts_with("publisherDomains[0]: "));
  bad.publisher_domains = {"a.example", "b.example", "c.example", "d.example", "e.example"};
  CHECK(ValidateRecord(bad).error().message.starts_with("publisherDomains: "));
  // An empty list in the 19-field form is not the record's one encoding.
  std::vector<uint8_t> empty_list = EncodeRecord(claims);
  const std::vector<uint8_t> tail = {0x92, 0xab};  // fixarray of 2, then "pub.example"
  auto at = std::search(empty_list.begin(), empty_list.end(), tail.begin(), tail.end());
  REQUIRE(at != empty_list.end());
  empty_list.erase(at, empty_list.end());
  empty_list.push_back(0x90);
  CHECK_FALSE(DecodeRecord(empty_list));
}

}  // namespace
}  // namespace skillnode::kademlia::store
