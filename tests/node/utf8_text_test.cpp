// IsUtf8 (node/utf8_text.h): well-formed UTF-8 passes; every malformed form is refused.
#include "node/utf8_text.h"

#include <catch2/catch.hpp>

namespace skillnode::node {
namespace {

TEST_CASE("IsUtf8 accepts UTF-8 and refuses overlong forms, surrogates and truncation", "[unit]") {
  CHECK(IsUtf8("plain \xE2\x82\xAC \xF0\x9F\x98\x80"));
  CHECK(IsUtf8(""));
  CHECK_FALSE(IsUtf8("\xC0\xAF"));          // overlong '/'
  CHECK_FALSE(IsUtf8("\xED\xA0\x80"));      // a surrogate
  CHECK_FALSE(IsUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  CHECK_FALSE(IsUtf8("\xE2\x82"));          // cut short
  CHECK_FALSE(IsUtf8("a\x80z"));            // a stray continuation byte
}

}  // namespace
}  // namespace skillnode::node
