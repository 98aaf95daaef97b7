// ASCII case folding for ids, names and tags: only A-Z change, so UTF-8 text passes through
// byte for byte and no locale is consulted.
#ifndef SKILLNODE_DISCOVERY_ASCII_H_
#define SKILLNODE_DISCOVERY_ASCII_H_

#include <string>
#include <string_view>

namespace skillnode::discovery {

inline std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_ASCII_H_
