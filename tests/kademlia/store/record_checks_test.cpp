// The field checks ValidateRecord is made of: characters counted as UTF-8 counts them, text and
// lists against their limits and the seed's separators, and a descriptor's examples.
#include "kademlia/store/record_checks.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::kademlia::store::record_checks {
namespace {

TEST_CASE("characters are counted as UTF-8 counts them, one per stray byte", "[unit]") {
  CHECK(CharacterCount("") == 0);
  CHECK(CharacterCount("skill") == 5);
  CHECK(CharacterCount("\xE6\xBC\xA2\xE5\xAD\x97") == 2);  // 漢字
  CHECK(CharacterCount("\xF0\x9F\x98\x80!") == 2);         // 😀!
  CHECK(CharacterCount("\xFF\xFE") == 2);                  // not UTF-8
}

TEST_CASE("text over its limit or holding a separator is refused naming the field", "[unit]") {
  CHECK(CheckText("f", "abc", 3, true));
  CHECK_THAT(CheckText("f", "", 3, true).error().message, Catch::Equals("f: is required"));
  CHECK_THAT(CheckText("f", "abcd", 3, false).error().message,
             Catch::StartsWith("f: is 4 characters, more than 3"));
  CHECK_FALSE(CheckText("f", "a;b", 3, false));
  CHECK(CheckText("f", "a;b", 3, false, /*separators_allowed=*/true));
  CHECK(CheckText("f", "a\nb", 3, false, true));  // free text: a line break too
  CHECK_THAT(CheckList("tags", {"a", "b", "a"}, 4, 8).error().message,
             Catch::Equals("tags[2]: 'a' is listed twice"));
}

TEST_CASE("a descriptor's examples are text, or JSON text with an object among them", "[unit]") {
  SkillDescriptor d;
  d.examples = {"plain text", "more, with; separators"};
  CHECK(CheckDescriptor(d));
  d.examples.clear();
  d.examples_json = {R"("text")", R"({"name":"n","input":[1,2],"description":"d"})"};
  CHECK(CheckDescriptor(d));
  d.examples_json = {R"("text")"};
  CHECK_FALSE(CheckDescriptor(d));
}

}  // namespace
}  // namespace skillnode::kademlia::store::record_checks
