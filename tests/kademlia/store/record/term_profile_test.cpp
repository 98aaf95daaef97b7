// TermProfile (kademlia/store/record/term_profile.h): a record's terms as 16-bit hashes and
// weights in tenths, sorted, looked up, and refused when malformed.
#include "kademlia/store/record/term_profile.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/store/record/term_pointer.h"

namespace skillnode::kademlia::store {
namespace {

using Terms = std::vector<std::pair<std::string_view, uint32_t>>;

TEST_CASE("a term's profile hash is the first two bytes of its shard-0 key", "[unit]") {
  const Key key = TermKey("calendar");
  CHECK(TermProfile::HashOf("calendar") == ((key.bytes()[0] << 8) | key.bytes()[1]));
  CHECK(TermProfile::HashOf("calendar") != TermProfile::HashOf("calendars"));
}

TEST_CASE("a profile holds each term's weight in tenths, sorted by hash", "[unit]") {
  const Terms terms = {{"calendar", 1086}, {"feishu", 450}, {"book", 4}, {"heavy", 9000}};
  const TermProfile profile = TermProfile::Of(terms);
  REQUIRE(profile.size() == 4);
  CHECK(profile.bytes().size() == 4 * kTermProfileEntryBytes);
  CHECK(profile.WeightCenti(TermProfile::HashOf("calendar")) == 1090);  // 10.86 to 10.9
  CHECK(profile.WeightCenti(TermProfile::HashOf("feishu")) == 450);
  CHECK(profile.WeightCenti(TermProfile::HashOf("book")) == 10);     // 0.04: at least 0.1
  CHECK(profile.WeightCenti(TermProfile::HashOf("heavy")) == 2550);  // 90.0: at most 25.5
  CHECK_FALSE(profile.WeightCenti(TermProfile::HashOf("meeting")));
  for (size_t i = 1; i < profile.size(); ++i) {
    const auto& b = profile.bytes();
    const size_t at = i * kTermProfileEntryBytes;
    CHECK(((b[at] << 8) | b[at + 1]) > ((b[at - 3] << 8) | b[at - 2]));
  }
  // The order of the terms given does not matter.
  const Terms reversed(terms.rbegin(), terms.rend());
  CHECK(TermProfile::Of(reversed) == profile);
  CHECK(TermProfile::Of(Terms{}).empty());
}

TEST_CASE("a profile holds all of a filter's hashes only when it holds each of them", "[unit]") {
  const TermProfile profile =
      TermProfile::Of(Terms{{"calendar", 300}, {"feishu", 450}, {"meeting", 120}});
  const uint16_t calendar = TermProfile::HashOf("calendar");
  const uint16_t feishu = TermProfile::HashOf("feishu");
  const uint16_t meeting = TermProfile::HashOf("meeting");
  const uint16_t pdf = TermProfile::HashOf("pdf");
  CHECK(profile.HoldsAll(std::vector<uint16_t>{}));
  CHECK(profile.HoldsAll(std::vector<uint16_t>{feishu}));
  CHECK(profile.HoldsAll(std::vector<uint16_t>{meeting, calendar, feishu}));
  CHECK_FALSE(profile.HoldsAll(std::vector<uint16_t>{pdf}));
  CHECK_FALSE(profile.HoldsAll(std::vector<uint16_t>{calendar, pdf, feishu}));
  // Below the lowest hash and above the highest are misses too, not reads past the ends.
  CHECK_FALSE(profile.HoldsAll(std::vector<uint16_t>{0x0000}));
  CHECK_FALSE(profile.HoldsAll(std::vector<uint16_t>{0xffff}));
  // An empty profile (a tombstone's) holds no term.
  CHECK_FALSE(TermProfile().HoldsAll(std::vector<uint16_t>{calendar}));
  CHECK(TermProfile().HoldsAll(std::vector<uint16_t>{}));
  // The static form reads the same bytes.
  CHECK(TermProfile::HoldsAll(profile.bytes(), std::vector<uint16_t>{calendar, meeting}));
}

TEST_CASE("terms whose hashes collide keep one entry, the heavier weight", "[unit]") {
  // Find a second term with calendar's hash: one in 65,536 of them, so a few hundred thousand
  // tries find one.
  const uint16_t hash = TermProfile::HashOf("calendar");
  std::string twin;
  for (int i = 0; i < 2'000'000 && twin.empty(); ++i) {
    const std::string candidate = "t" + std::to_string(i);
    if (TermProfile::HashOf(candidate) == hash) twin = candidate;
  }
  REQUIRE_FALSE(twin.empty());
  const TermProfile profile = TermProfile::Of(Terms{{"calendar", 300}, {twin, 700}});
  CHECK(profile.size() == 1);
  CHECK(profile.WeightCenti(hash) == 700);
}

TEST_CASE("a profile's bytes round-trip, and malformed ones are refused with the reason",
          "[unit]") {
  const TermProfile profile = TermProfile::Of(Terms{{"calendar", 300}, {"feishu", 450}});
  const std::vector<uint8_t> bytes(profile.bytes().begin(), profile.bytes().end());
  auto back = TermProfile::FromBytes(bytes);
  REQUIRE(back);
  CHECK(*back == profile);
  CHECK(TermProfile::FromBytes({})->empty());

  std::vector<uint8_t> partial = bytes;
  partial.pop_back();
  CHECK(TermProfile::FromBytes(partial).error().message == "5 bytes are not whole entries of 3");

  std::vector<uint8_t> unsorted(bytes.begin() + 3, bytes.end());
  unsorted.insert(unsorted.end(), bytes.begin(), bytes.begin() + 3);
  CHECK(TermProfile::FromBytes(unsorted).error().message ==
        "term 1's hash is not above the one before");
  std::vector<uint8_t> repeated(bytes.begin(), bytes.begin() + 3);
  repeated.insert(repeated.end(), bytes.begin(), bytes.begin() + 3);
  CHECK_FALSE(TermProfile::FromBytes(repeated));

  std::vector<uint8_t> weightless = bytes;
  weightless[5] = 0;
  CHECK(TermProfile::FromBytes(weightless).error().message == "term 1 has weight 0");

  std::vector<uint8_t> too_many;
  for (uint16_t h = 0; h <= kTermProfileTermsMax; ++h) {
    too_many.insert(too_many.end(), {0, static_cast<uint8_t>(h), 1});
  }
  CHECK(TermProfile::FromBytes(too_many).error().message == "33 terms, more than 32");
  too_many.resize(kTermProfileBytesMax);
  CHECK(TermProfile::FromBytes(too_many));
}

}  // namespace
}  // namespace skillnode::kademlia::store
