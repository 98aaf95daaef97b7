// Base64url without padding (RFC 4648 §5, as JOSE uses it: RFC 7515 §2), over libsodium's
// URL-safe no-padding variant. Pure functions; no state.
#ifndef SKILLNODE_NODE_JOSE_BASE64URL_H_
#define SKILLNODE_NODE_JOSE_BASE64URL_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::node::jose {

// The longest text Base64UrlDecode takes (about 48 KiB of bytes): far above any JOSE header,
// key or signature, and a bound on what a hostile document can make this decode.
constexpr size_t kBase64UrlTextMax = 64 * 1024;

std::string Base64UrlEncode(std::span<const uint8_t> bytes);
std::string Base64UrlEncode(std::string_view bytes);
// Refuses padding ('='), white space, characters outside A-Z a-z 0-9 '-' '_', a length that
// no encoding has (4n+1), and non-zero bits left over in the last character (so that every
// byte string has exactly one encoding); kParse naming the problem.
[[nodiscard]] transport::Result<std::vector<uint8_t>> Base64UrlDecode(std::string_view text);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_BASE64URL_H_
