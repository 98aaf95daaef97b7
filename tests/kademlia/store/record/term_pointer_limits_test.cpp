// Term pointers (kademlia/store/record/term_pointer.h) at and past their limits: every field
// limit refused with the field named, every limit itself taken, and malformed bytes (the
// profile's included) refused with what was wrong.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "kademlia/store/record/term_pointer.h"
#include "kademlia/wire/msgpack_out.h"
#include "support/records.h"
#include "support/utf8_text.h"
#include "term_pointer_samples.h"

namespace skillnode::kademlia::store {
namespace {

using term_pointer_samples::Bury;
using term_pointer_samples::FieldOf;
using term_pointer_samples::SamplePointer;
using term_pointer_samples::SampleProfiled;
using testing::Characters;
using testing::Publisher;

TEST_CASE("every term pointer limit is refused with the field it names", "[unit]") {
  struct Case {
    std::string field;
    std::function<void(TermPointer&)> change;
  };
  const std::vector<Case> cases = {
      {"term", [](TermPointer& p) { p.term.clear(); }},
      {"term", [](TermPointer& p) { p.term = std::string(kTermBytesMax + 1, 'a'); }},
      {"term", [](TermPointer& p) { p.term = "pdf#2"; }},
      {"term", [](TermPointer& p) { p.term = "two words"; }},
      {"term", [](TermPointer& p) { p.term = "tab\t"; }},
      {"agentId", [](TermPointer& p) { p.agent_id.clear(); }},
      {"agentId", [](TermPointer& p) { p.agent_id = std::string(kIdLengthMax + 1, 'a'); }},
      {"agentId", [](TermPointer& p) { p.agent_id = "agent;1"; }},
      {"skillId", [](TermPointer& p) { p.skill_id.clear(); }},
      {"skillId", [](TermPointer& p) { p.skill_id = "skill|1"; }},
      {"recordKey", [](TermPointer& p) { p.record_key = SkillKey("another-skill"); }},
      {"name", [](TermPointer& p) { p.name = std::string(kTitleLengthMax + 1, 'n'); }},
      {"name", [](TermPointer& p) { p.name = "Feishu, Calendar"; }},
      {"description",
       [](TermPointer& p) {
         p.description = std::string(kTermPointerDescriptionBytesMax + 1, 'd');
       }},
      {"description", [](TermPointer& p) { p.description = "books \xE6\xBC"; }},  // 漢 cut
      {"weight", [](TermPointer& p) { p.weight_centi = 0; }},
      {"weight", [](TermPointer& p) { p.weight_centi = kTermWeightCentiMax + 1; }},
      {"ttl", [](TermPointer& p) { p.ttl_seconds = kRecordTtlMinSeconds - 1; }},
      {"ttl", [](TermPointer& p) { p.ttl_seconds = kRecordTtlMaxSeconds + 1; }},
      {"name",
       [](TermPointer& p) {
         Bury(p);
         p.name = "Feishu Calendar";
       }},
      {"description",
       [](TermPointer& p) {
         Bury(p);
         p.description = "Reads meetings.";
       }},
      {"weight",
       [](TermPointer& p) {
         Bury(p);
         p.weight_centi = 1;
       }},
      {"terms",
       [](TermPointer& p) {
         Bury(p);
         p.terms = SampleProfiled().terms;
       }},
  };
  for (const Case& c : cases) {
    TermPointer p = SamplePointer();
    c.change(p);
    auto invalid = ValidateTermPointer(p);
    REQUIRE_FALSE(invalid);
    CHECK(invalid.error().code == transport::ErrorCode::kInvalidArgument);
    CHECK(FieldOf(invalid.error()) == c.field);
    CHECK_FALSE(SignTermPointer(p, Publisher()));
    // A holder refuses it too, though its publisher signed it.
    p.publisher = Publisher().public_key();
    const std::vector<uint8_t> bytes = EncodeTermPointer(p);
    CHECK_FALSE(VerifyTermPointer(bytes, Ed25519Signatures().Sign(Publisher(), bytes)));
  }
}

TEST_CASE("a term pointer at every limit is taken", "[unit]") {
  TermPointer p = SamplePointer(std::string(kTermBytesMax, 't'));
  p.agent_id = std::string(kIdLengthMax, 'a');
  p.skill_id = std::string(kIdLengthMax, 's');
  p.record_key = SkillKey(p.skill_id);
  p.name = std::string(kTitleLengthMax, 'n');
  p.description = Characters(kTermPointerDescriptionBytesMax / 4, 4);
  p.weight_centi = kTermWeightCentiMax;
  p.timestamp_ms = UINT64_MAX;
  p.sequence = UINT64_MAX;
  p.ttl_seconds = kRecordTtlMaxSeconds;
  std::vector<std::string> names;
  for (size_t i = 0; i < kTermProfileTermsMax; ++i) names.push_back("term" + std::to_string(i));
  std::vector<std::pair<std::string_view, uint32_t>> terms;
  for (const std::string& name : names) terms.emplace_back(name, kTermWeightCentiMax);
  p.terms = TermProfile::Of(terms);
  REQUIRE(p.terms.size() == kTermProfileTermsMax);
  auto signed_pointer = SignTermPointer(p, Publisher());
  REQUIRE(signed_pointer);
  // The largest pointer still travels inline, well inside a datagram.
  CHECK(signed_pointer->encoded.size() < 800);
  CHECK(VerifyTermPointer(signed_pointer->encoded, signed_pointer->signature));
  CHECK(NotAfterMs(p) == UINT64_MAX);
}

TEST_CASE("malformed term pointer bytes are refused with what was wrong", "[unit]") {
  TermPointer p = SamplePointer();
  const std::vector<uint8_t> good = EncodeTermPointer(p);

  std::vector<uint8_t> trailing = good;
  trailing.push_back(0xc0);
  CHECK(DecodeTermPointer(trailing).error().message == "trailing bytes after term pointer");

  std::vector<uint8_t> short_array = good;
  short_array[0] = 0x9c;  // 12 elements
  CHECK(DecodeTermPointer(short_array).error().code == transport::ErrorCode::kParse);

  std::vector<uint8_t> other_tag = good;
  other_tag[10] ^= 0x01;  // a letter of the tag
  CHECK(DecodeTermPointer(other_tag).error().message ==
        "term pointer field tag: expected 'skillnode-term-pointer-v1'");

  // The record key's place (after the array, the tag and the term) holds a str instead.
  std::vector<uint8_t> not_a_key = good;
  const auto key_at = not_a_key.begin() + 1 + 26 + 9;
  REQUIRE(*key_at == 0xc4);
  const auto after_key = not_a_key.erase(key_at, key_at + 34);
  not_a_key.insert(after_key, {0xa3, 'k', 'e', 'y'});
  CHECK(DecodeTermPointer(not_a_key).error().message ==
        "term pointer field recordKey: expected bin of 32 bytes");

  const std::vector<uint8_t> huge(kTermPointerEncodedSizeMax + 1, 0xc0);
  CHECK(DecodeTermPointer(huge).error().code == transport::ErrorCode::kParse);
}

TEST_CASE("a malformed profile is refused, naming the terms field", "[unit]") {
  TermPointer p = SampleProfiled();
  std::vector<uint8_t> bytes = EncodeTermPointer(p);
  // The profile is the last element: a bin8 of 12 bytes. Swap its first two entries.
  REQUIRE(bytes[bytes.size() - 14] == 0xc4);
  std::swap_ranges(bytes.end() - 12, bytes.end() - 9, bytes.end() - 9);
  CHECK(DecodeTermPointer(bytes).error().message ==
        "term pointer field terms: term 1's hash is not above the one before");
  std::vector<uint8_t> as_text = EncodeTermPointer(SamplePointer());
  as_text[0] = 0x9e;
  as_text.insert(as_text.end(), {0xa1, 'x'});
  CHECK(DecodeTermPointer(as_text).error().message.starts_with("term pointer field terms: "));
}

}  // namespace
}  // namespace skillnode::kademlia::store
