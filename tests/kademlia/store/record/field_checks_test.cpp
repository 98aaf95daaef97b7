// The field checks the store's value types share (kademlia/store/record/field_checks.h): characters
// counted as UTF-8 counts them, text cut inside a character, control characters, and text and
// lists against their limits and the seed's separators, each error naming its field.
#include "kademlia/store/record/field_checks.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::kademlia::store::field_checks {
namespace {

TEST_CASE("characters are counted as UTF-8 counts them, one per stray byte", "[unit]") {
  CHECK(CharacterCount("") == 0);
  CHECK(CharacterCount("skill") == 5);
  CHECK(CharacterCount("\xE6\xBC\xA2\xE5\xAD\x97") == 2);  // 漢字
  CHECK(CharacterCount("\xF0\x9F\x98\x80!") == 2);         // 😀!
  CHECK(CharacterCount("\xFF\xFE") == 2);                  // not UTF-8
}

TEST_CASE("text cut inside a UTF-8 character is told from whole text", "[unit]") {
  CHECK_FALSE(EndsInsideCharacter(""));
  CHECK_FALSE(EndsInsideCharacter("books"));
  CHECK_FALSE(EndsInsideCharacter("a\xE6\xBC\xA2"));     // 漢 whole
  CHECK(EndsInsideCharacter("a\xE6\xBC"));               // 漢 missing its last byte
  CHECK(EndsInsideCharacter("a\xE6"));                   // 漢's lead byte alone
  CHECK_FALSE(EndsInsideCharacter("\xF0\x9F\x98\x80"));  // 😀 whole
  CHECK(EndsInsideCharacter("\xF0\x9F\x98"));            // 😀 cut
  CHECK(EndsInsideCharacter("\xC3"));                    // é's lead byte alone
  CHECK_FALSE(EndsInsideCharacter("\x80\x80"));          // continuation bytes alone
}

TEST_CASE("control characters are found, and text without one is left alone", "[unit]") {
  CHECK_FALSE(HasControlCharacter("two words; and, more|"));
  CHECK(HasControlCharacter("tab\t"));
  CHECK(HasControlCharacter("del\x7f"));
  CHECK(HasControlCharacter(std::string("nul\0", 4)));
  CHECK_FALSE(HasControlCharacter("\xE6\xBC\xA2"));  // bytes of 0x80 and up are not control
}

TEST_CASE("text over its limit or holding a separator is refused naming the field", "[unit]") {
  CHECK(CheckText("f", "abc", 3, true));
  CHECK(CheckText("f", "", 3, false));
  CHECK_THAT(CheckText("f", "", 3, true).error().message, Catch::Equals("f: is required"));
  CHECK(CheckText("f", "abcd", 3, false).error().code == transport::ErrorCode::kInvalidArgument);
  CHECK_THAT(CheckText("f", "abcd", 3, false).error().message,
             Catch::StartsWith("f: is 4 characters, more than 3"));
  CHECK_THAT(CheckText("f", "a;b", 3, false).error().message,
             Catch::Equals("f: contains ';', ',', '|' or a control character"));
  CHECK_FALSE(CheckText("f", "a\tb", 3, false));
  CHECK(CheckText("f", "a;b", 3, false, /*separators_allowed=*/true));
  CHECK(CheckText("f", "a\nb", 3, false, true));  // free text: a line break too
}

TEST_CASE("a list over its count, or with an entry refused or listed twice, names it", "[unit]") {
  CHECK(CheckList("tags", {"a", "b"}, 2, 8));
  CHECK_THAT(CheckList("tags", {"a", "b", "c"}, 2, 8).error().message,
             Catch::Equals("tags: has 3 entries, more than 2"));
  CHECK_THAT(CheckList("tags", {"a", ""}, 4, 8).error().message,
             Catch::Equals("tags[1]: is required"));
  CHECK_THAT(CheckList("tags", {"a", "b", "a"}, 4, 8).error().message,
             Catch::Equals("tags[2]: 'a' is listed twice"));
  CHECK(CheckList("examples", {"x, y"}, 4, 8, /*separators_allowed=*/true));
}

TEST_CASE("an invalid field's error is kInvalidArgument and reads field: reason", "[unit]") {
  const tl::unexpected<transport::Error> error = Invalid("descriptor.tags[2]", "is bad");
  CHECK(error.value().code == transport::ErrorCode::kInvalidArgument);
  CHECK(error.value().message == "descriptor.tags[2]: is bad");
  CHECK(Count(12, "bytes") == "12 bytes");
}

}  // namespace
}  // namespace skillnode::kademlia::store::field_checks
