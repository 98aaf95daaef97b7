// Test helper for limits counted in UTF-8 bytes or characters: text of wide characters.
#ifndef SKILLNODE_TESTS_SUPPORT_UTF8_TEXT_H_
#define SKILLNODE_TESTS_SUPPORT_UTF8_TEXT_H_

#include <cassert>
#include <cstddef>
#include <string>

namespace skillnode::testing {

// `count` copies of a character of `bytes` UTF-8 bytes: CJK (3) or an emoji (4).
inline std::string Characters(size_t count, size_t bytes) {
  assert(bytes == 3 || bytes == 4);
  const std::string one = bytes == 3 ? "\xE6\xBC\xA2" : "\xF0\x9F\x98\x80";  // 漢, 😀
  std::string out;
  out.reserve(count * bytes);
  for (size_t i = 0; i < count; ++i) out += one;
  return out;
}

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_UTF8_TEXT_H_
