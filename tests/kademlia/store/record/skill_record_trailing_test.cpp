// Forward compatibility of the skill record encoding (docs/protocol.md "Forward compatibility"):
// a record or origin a newer version wrote, with elements after those this version knows,
// decodes, verifies and encodes again to the bytes its publisher signed; more unknown elements
// than kRecordExtraElementsMax, or a hostile one, are refused with what was wrong.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Publisher;
using testing::SampleRecord;

// Two elements a newer version might add: "hello", and [1, true].
const std::vector<uint8_t> kTwoElements = {0xa5, 'h', 'e', 'l', 'l', 'o', 0x92, 0x01, 0xc3};

// The record `r` (signed by Publisher()) as a newer version writes it: its 19 fields, nil for
// each optional one it lacks, then `count` elements of `extra` after them.
std::vector<uint8_t> NewerRecord(SkillRecord r, uint32_t count, const std::vector<uint8_t>& extra) {
  r.publisher = Publisher().public_key();
  std::vector<uint8_t> bytes = EncodeRecord(r);
  REQUIRE(bytes[0] == 0xdc);  // array16: 16 to 19 fields
  REQUIRE(bytes[1] == 0x00);
  for (uint8_t fields = bytes[2]; fields < 19; ++fields) bytes.push_back(0xc0);
  bytes[2] = static_cast<uint8_t>(19 + count);
  bytes.insert(bytes.end(), extra.begin(), extra.end());
  return bytes;
}

SkillRecord WithDomains() {
  SkillRecord r = SampleRecord();
  r.publisher_domains = {"pub.example"};
  return r;
}

TEST_CASE("a record with two unknown trailing elements verifies and encodes to its bytes again",
          "[unit]") {
  for (const SkillRecord& original : {WithDomains(), SampleRecord()}) {
    const std::vector<uint8_t> bytes = NewerRecord(original, 2, kTwoElements);
    auto verified = VerifyRecord(bytes, Publisher().Sign(bytes));
    REQUIRE(verified);
    CHECK(verified->encoded == bytes);
    const SkillRecord& r = verified->record;
    CHECK(r.unknown_trailing.count == 2);
    CHECK(r.unknown_trailing.encoded == kTwoElements);
    // Everything this version knows reads as it was written.
    SkillRecord known = r;
    known.unknown_trailing = {};
    SkillRecord expected = original;
    expected.publisher = Publisher().public_key();
    CHECK(known == expected);
    CHECK(EncodeRecord(r) == bytes);
  }
}

TEST_CASE("an origin with unknown trailing elements verifies and encodes to its bytes again",
          "[unit]") {
  SkillRecord r = SampleRecord();
  r.publisher = Publisher().public_key();
  r.origin = RecordOrigin{};
  r.origin->format = OriginFormat::kAgentSkills;
  r.origin->source_url = "https://pub.example/skills/index.json";
  r.origin->document_sha256 = Key::Sha256("SKILL.md").bytes();
  r.origin->document_size = 10;
  std::vector<uint8_t> bytes = EncodeRecord(r);    // 18 fields, the origin (9 fields) last
  const std::vector<uint8_t> nine = {0x99, 0x02};  // fixarray of 9, agent-skills
  auto at = std::search(bytes.begin(), bytes.end(), nine.begin(), nine.end());
  REQUIRE(at != bytes.end());
  *at = 0x9c;             // 12: the 9, publisherDomainState, and two a newer version added
  bytes.push_back(0xc0);  // publisherDomainState, none: nil before the elements after it
  bytes.insert(bytes.end(), kTwoElements.begin(), kTwoElements.end());
  auto verified = VerifyRecord(bytes, Publisher().Sign(bytes));
  REQUIRE(verified);
  REQUIRE(verified->record.origin);
  CHECK(verified->record.origin->unknown_trailing.count == 2);
  CHECK(verified->record.origin->unknown_trailing.encoded == kTwoElements);
  CHECK(verified->record.origin->publisher_domain_state == OriginDomainState::kNone);
  CHECK(EncodeRecord(verified->record) == bytes);
}

TEST_CASE("more unknown trailing elements than the bound are refused naming how many", "[unit]") {
  std::vector<uint8_t> nine_nils(kRecordExtraElementsMax + 1, 0xc0);
  auto refused = DecodeRecord(NewerRecord(WithDomains(), kRecordExtraElementsMax + 1, nine_nils));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == transport::ErrorCode::kParse);
  CHECK(refused.error().message ==
        "record: 28 elements: 9 unknown ones after the 19 this version reads, more than the 8 "
        "it skips");
  // The bound itself is accepted.
  std::vector<uint8_t> eight_nils(kRecordExtraElementsMax, 0xc0);
  CHECK(DecodeRecord(NewerRecord(WithDomains(), kRecordExtraElementsMax, eight_nils)));

  SkillRecord imported = SampleRecord();
  imported.origin = RecordOrigin{};
  imported.origin->format = OriginFormat::kAgentSkills;
  std::vector<uint8_t> bytes = EncodeRecord(imported);
  const std::vector<uint8_t> nine = {0x99, 0x02};
  auto at = std::search(bytes.begin(), bytes.end(), nine.begin(), nine.end());
  REQUIRE(at != bytes.end());
  at = bytes.erase(at);
  bytes.insert(at, {0xdc, 0x00, 0x13});  // array16 of 19: 10 known and 9 more
  bytes.push_back(0xc0);
  bytes.insert(bytes.end(), nine_nils.begin(), nine_nils.end());
  CHECK(DecodeRecord(bytes).error().message ==
        "record field origin: 19 elements: 9 unknown ones after the 10 this version reads, more "
        "than the 8 it skips");
}

TEST_CASE("unknown trailing elements are held to msgpack's shortest form and the unpack limits",
          "[unit]") {
  // 1 as uint8 (0xcc 0x01) rather than a fixint: the same value in other bytes, not canonical.
  const std::vector<uint8_t> long_form = NewerRecord(WithDomains(), 1, {0xcc, 0x01});
  REQUIRE(DecodeRecord(long_form));
  auto verified = VerifyRecord(long_form, Publisher().Sign(long_form));
  REQUIRE_FALSE(verified);
  CHECK_THAT(verified.error().message, Catch::Contains("canonical"));
  // Nested deeper than a record may be, or claiming more elements than the limits allow: errors
  // from the bounded unpack, never a crash.
  CHECK(DecodeRecord(NewerRecord(WithDomains(), 1, {0x91, 0x91, 0x91, 0x01})));  // 4 deep
  CHECK_FALSE(DecodeRecord(NewerRecord(WithDomains(), 1, {0x91, 0x91, 0x91, 0x91, 0x01})));
  CHECK_FALSE(DecodeRecord(NewerRecord(WithDomains(), 1, {0xdd, 0xff, 0xff, 0xff, 0xff})));
  CHECK_FALSE(DecodeRecord(NewerRecord(WithDomains(), 1, {0xc7, 0x01, 0x05, 0x00})));  // ext
  // Truncated anywhere inside the unknown elements: an error.
  const std::vector<uint8_t> whole = NewerRecord(WithDomains(), 2, kTwoElements);
  for (size_t cut = 1; cut <= kTwoElements.size(); ++cut) {
    CHECK_FALSE(DecodeRecord(std::span(whole).first(whole.size() - cut)));
  }
}

TEST_CASE("an optional field before unknown trailing elements is nil when it has no value",
          "[unit]") {
  // publisherDomains as an empty list rather than nil: not the record's one encoding.
  std::vector<uint8_t> bytes = NewerRecord(SampleRecord(), 1, {0x01});
  REQUIRE(bytes[bytes.size() - 2] == 0xc0);  // publisherDomains: nil
  bytes[bytes.size() - 2] = 0x90;            // an empty array
  CHECK_THAT(DecodeRecord(bytes).error().message, Catch::Contains("publisherDomains"));
}

}  // namespace
}  // namespace skillnode::kademlia::store
