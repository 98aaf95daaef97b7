// Term pointers (kademlia/store/record/term_pointer.h): the canonical encoding round trip and its
// determinism, the pointers of the version before profiles, signatures over other bytes refused,
// the term's shard keys and the description prefix. The limits are term_pointer_limits_test.cpp's.
#include "kademlia/store/record/term_pointer.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/wire/encoding.h"
#include "kademlia/wire/msgpack_out.h"
#include "support/records.h"
#include "support/utf8_text.h"
#include "term_pointer_samples.h"

namespace skillnode::kademlia::store {
namespace {

using term_pointer_samples::SamplePointer;
using term_pointer_samples::SampleProfiled;
using term_pointer_samples::SampleTombstone;
using testing::Characters;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

TEST_CASE("a term pointer and its tombstone round-trip through the canonical encoding", "[unit]") {
  for (TermPointer p :
       {SamplePointer(), SampleProfiled(), SampleTombstone(), SamplePointer("日本")}) {
    p.publisher = Publisher().public_key();
    REQUIRE(ValidateTermPointer(p));
    const std::vector<uint8_t> bytes = EncodeTermPointer(p);
    auto back = DecodeTermPointer(bytes);
    REQUIRE(back);
    CHECK(*back == p);
    CHECK(EncodeTermPointer(*back) == bytes);
  }
}

TEST_CASE("a term pointer always encodes to the same bytes, and every field changes them",
          "[unit]") {
  TermPointer p = SamplePointer();
  p.publisher = Publisher().public_key();
  const std::vector<uint8_t> bytes = EncodeTermPointer(p);
  CHECK(EncodeTermPointer(TermPointer(p)) == bytes);
  // Pinned from the first version of the format: a change to it must be deliberate.
  CHECK(wire::HexEncode(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 38)) ==
        "9db9736b696c6c6e6f64652d7465726d2d706f696e7465722d7631a863616c656e646172c420");
  CHECK(bytes.size() == 211);  // 46 of them the description, a str8

  std::vector<TermPointer> changed(12, p);
  changed[0].term = "calendars";
  changed[1].skill_id = "skill-org-feishu2";
  changed[1].record_key = SkillKey(changed[1].skill_id);
  changed[2].agent_id = "agent-002";
  changed[3].name = "Feishu Calendars";
  changed[4].description = "Reads meetings.";
  changed[5].weight_centi = 451;
  changed[6].timestamp_ms += 1;
  changed[7].sequence += 1;
  changed[8].ttl_seconds += 1;
  changed[9] = SampleTombstone();
  changed[9].publisher = p.publisher;
  changed[10].publisher = Publisher("other").public_key();
  changed[11].record_key = Key::Sha256("elsewhere");
  for (const TermPointer& other : changed) CHECK(EncodeTermPointer(other) != bytes);

  // The profile is a fourteenth element, and each of its terms changes the bytes.
  TermPointer profiled = SampleProfiled();
  profiled.publisher = p.publisher;
  const std::vector<uint8_t> with_terms = EncodeTermPointer(profiled);
  CHECK(with_terms[0] == 0x9e);                 // fixarray of 14
  CHECK(with_terms.size() == 211 + 2 + 4 * 3);  // bin8 of four terms
  CHECK(std::equal(bytes.begin() + 1, bytes.end(), with_terms.begin() + 1));
  const std::vector<std::pair<std::string_view, uint32_t>> other_terms = {
      {"calendar", 450}, {"feishu", 300}, {"meeting", 80}, {"books", 60}};
  profiled.terms = TermProfile::Of(other_terms);
  CHECK(EncodeTermPointer(profiled) != with_terms);
}

TEST_CASE("a pointer of the version before profiles verifies, and its profile is empty", "[unit]") {
  const Identity publisher = Publisher();
  TermPointer p = SamplePointer();
  p.publisher = publisher.public_key();
  const std::vector<uint8_t> bytes = EncodeTermPointer(p);
  REQUIRE(bytes[0] == 0x9d);  // the 13 elements it wrote
  auto verified = VerifyTermPointer(bytes, Ed25519Signatures().Sign(publisher, bytes));
  REQUIRE(verified);
  CHECK(verified->pointer.terms.empty());
  // An empty profile written out is not canonical: that pointer has 13 elements.
  std::vector<uint8_t> nil_terms = bytes;
  nil_terms[0] = 0x9e;
  nil_terms.push_back(0xc0);
  REQUIRE(DecodeTermPointer(nil_terms));
  auto refused = VerifyTermPointer(nil_terms, Ed25519Signatures().Sign(publisher, nil_terms));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "term pointer is not in canonical form");
}

TEST_CASE("a signed term pointer verifies, keeps its bytes and names its signer", "[unit]") {
  const Identity publisher = Publisher();
  auto signed_pointer = SignTermPointer(SamplePointer(), publisher);
  REQUIRE(signed_pointer);
  CHECK(signed_pointer->pointer.publisher == publisher.public_key());
  auto verified = VerifyTermPointer(signed_pointer->encoded, signed_pointer->signature);
  REQUIRE(verified);
  CHECK(*verified == *signed_pointer);
  CHECK(verified->pointer == signed_pointer->pointer);
  CHECK(IdentityOf(verified->pointer) == IdentityOf(SignRecord(SampleRecord(), publisher)->record));
}

TEST_CASE("a term pointer's signature over other bytes is refused", "[unit]") {
  const Identity publisher = Publisher();
  const SignedTermPointer calendar = SignTermPointer(SamplePointer(), publisher).value();
  const SignedTermPointer meeting = SignTermPointer(SamplePointer("meeting"), publisher).value();
  auto swapped = VerifyTermPointer(meeting.encoded, calendar.signature);
  REQUIRE_FALSE(swapped);
  CHECK(swapped.error().code == transport::ErrorCode::kCrypto);

  // Signed by another key than the one the pointer names.
  TermPointer claimed = SamplePointer();
  claimed.publisher = publisher.public_key();
  const std::vector<uint8_t> bytes = EncodeTermPointer(claimed);
  const Signature forged = Ed25519Signatures().Sign(Publisher("intruder"), bytes);
  auto refused = VerifyTermPointer(bytes, forged);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == transport::ErrorCode::kCrypto);

  // A skill record's signature is never a pointer's: the tag tells them apart.
  const SignedRecord record = Signed(SampleRecord(), publisher);
  auto as_pointer = VerifyTermPointer(record.encoded, record.signature);
  REQUIRE_FALSE(as_pointer);
  CHECK(as_pointer.error().code == transport::ErrorCode::kParse);
}

TEST_CASE("a term pointer with one flipped bit anywhere is refused", "[unit]") {
  const SignedTermPointer s = SignTermPointer(SampleProfiled(), Publisher()).value();
  for (size_t i = 0; i < s.encoded.size(); ++i) {
    std::vector<uint8_t> bytes = s.encoded;
    bytes[i] ^= 0x01;
    CHECK_FALSE(VerifyTermPointer(bytes, s.signature));
  }
}

TEST_CASE("a term pointer signed in a non-canonical encoding is refused", "[unit]") {
  const Identity publisher = Publisher();
  TermPointer p = SamplePointer();
  p.publisher = publisher.public_key();
  std::vector<uint8_t> bytes = EncodeTermPointer(p);
  // The weight 450 is 0xcd 0x01 0xc2 (uint16); write it as a uint32 instead, and sign that.
  const std::vector<uint8_t> shortest = {0xcd, 0x01, 0xc2};
  auto at = std::search(bytes.begin(), bytes.end(), shortest.begin(), shortest.end());
  REQUIRE(at != bytes.end());
  at = bytes.erase(at, at + 3);
  bytes.insert(at, {0xce, 0x00, 0x00, 0x01, 0xc2});
  REQUIRE(DecodeTermPointer(bytes));
  auto refused = VerifyTermPointer(bytes, Ed25519Signatures().Sign(publisher, bytes));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "term pointer is not in canonical form");
}

TEST_CASE("a term pointer with unknown trailing elements verifies and encodes to its bytes",
          "[unit]") {
  const Identity publisher = Publisher();
  TermPointer p = SampleProfiled();
  p.publisher = publisher.public_key();
  // As a newer version writes it: the 14 fields, then "hello" and [1, true] after them.
  std::vector<uint8_t> bytes = EncodeTermPointer(p);
  REQUIRE(bytes[0] == 0x9e);  // fixarray of 14
  bytes.erase(bytes.begin());
  bytes.insert(bytes.begin(), {0xdc, 0x00, 16});  // array16 of 16
  const std::vector<uint8_t> two = {0xa5, 'h', 'e', 'l', 'l', 'o', 0x92, 0x01, 0xc3};
  bytes.insert(bytes.end(), two.begin(), two.end());
  auto verified = VerifyTermPointer(bytes, Ed25519Signatures().Sign(publisher, bytes));
  REQUIRE(verified);
  CHECK(verified->encoded == bytes);
  CHECK(verified->pointer.unknown_trailing.count == 2);
  CHECK(verified->pointer.unknown_trailing.encoded == two);
  TermPointer known = verified->pointer;
  known.unknown_trailing = {};
  CHECK(known == p);
  CHECK(EncodeTermPointer(verified->pointer) == bytes);

  // Unknown elements after a pointer without a profile: its place holds nil.
  TermPointer bare = SamplePointer();
  bare.publisher = publisher.public_key();
  bare.unknown_trailing = verified->pointer.unknown_trailing;
  const std::vector<uint8_t> bare_bytes = EncodeTermPointer(bare);
  CHECK(std::equal(two.rbegin(), two.rend(), bare_bytes.rbegin()));
  CHECK(bare_bytes[bare_bytes.size() - two.size() - 1] == 0xc0);
  auto bare_back = DecodeTermPointer(bare_bytes);
  REQUIRE(bare_back);
  CHECK(*bare_back == bare);

  // Nine unknown elements, one more than kRecordExtraElementsMax: refused, naming the count.
  std::vector<uint8_t> too_many = EncodeTermPointer(p);
  too_many.erase(too_many.begin());
  too_many.insert(too_many.begin(), {0xdc, 0x00, 14 + 9});  // array16 of 23
  too_many.insert(too_many.end(), kRecordExtraElementsMax + 1, 0xc0);
  CHECK(DecodeTermPointer(too_many).error().message ==
        "term pointer: 23 elements: 9 unknown ones after the 14 this version reads, more than "
        "the 8 it skips");
  // An unknown element nested deeper than a pointer may be: refused by the unpack limits.
  std::vector<uint8_t> deep = EncodeTermPointer(p);
  deep[0] = 0x9f;  // 15
  std::vector<uint8_t> shallow = deep;
  shallow.insert(shallow.end(), {0x91, 0x01});  // an array of scalars: 2 deep
  CHECK(DecodeTermPointer(shallow));
  deep.insert(deep.end(), {0x91, 0x91, 0x01});
  CHECK(DecodeTermPointer(deep).error().code == transport::ErrorCode::kParse);
}

TEST_CASE("a term's shards have keys of their own, and each key names its shard", "[unit]") {
  CHECK(TermKey("pdf") == Key::Sha256("term:pdf"));
  CHECK(TermKey("pdf", 0) == Key::Sha256("term:pdf"));
  CHECK(TermKey("pdf", 3) == Key::Sha256("term:pdf#3"));
  CHECK(TermKey("pdf", kTermShardsMax - 1) == Key::Sha256("term:pdf#63"));
  CHECK(TermShardOf("pdf", TermKey("pdf")) == 0u);
  CHECK(TermShardOf("pdf", TermKey("pdf", 3)) == 3u);
  CHECK(TermShardOf("pdf", Key::Sha256("term:pdf#64")) == std::nullopt);
  CHECK(TermShardOf("pdfs", TermKey("pdf")) == std::nullopt);
  CHECK(TermShardOf("pdf", CapabilityKey("pdf")) == std::nullopt);
}

TEST_CASE("the description prefix is cut before the character that crosses its limit", "[unit]") {
  CHECK(DescriptionPrefix("short") == "short");
  CHECK(DescriptionPrefix(std::string(200, 'x')) ==
        std::string(kTermPointerDescriptionBytesMax, 'x'));
  // "a" and 32 CJK characters: 97 bytes; the last one would end at byte 97.
  const std::string cjk = "a" + Characters(32, 3);
  CHECK(DescriptionPrefix(cjk) == "a" + Characters(31, 3));
  // 25 emoji: 100 bytes; 24 fit exactly.
  CHECK(DescriptionPrefix(Characters(25, 4)) == Characters(24, 4));
  for (const std::string& text : {cjk, Characters(25, 4), std::string("x\xE6")}) {
    TermPointer p = SamplePointer();
    p.description = DescriptionPrefix(text);
    CHECK(ValidateTermPointer(p));
  }
}

TEST_CASE("a term pointer's encoding is told from a skill record's by its tag alone", "[unit]") {
  const SignedTermPointer pointer = *SignTermPointer(SamplePointer(), Publisher());
  CHECK(IsTermPointerEncoding(pointer.encoded));
  CHECK_FALSE(IsTermPointerEncoding(Signed(SampleRecord(), Publisher()).encoded));
  CHECK_FALSE(IsTermPointerEncoding({}));
  std::vector<uint8_t> cut(pointer.encoded.begin(), pointer.encoded.begin() + 10);
  CHECK_FALSE(IsTermPointerEncoding(cut));
  std::vector<uint8_t> other_tag = pointer.encoded;
  other_tag[5] ^= 1;
  CHECK_FALSE(IsTermPointerEncoding(other_tag));
}

}  // namespace
}  // namespace skillnode::kademlia::store
