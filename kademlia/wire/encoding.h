// Hex, base64 and SHA-256 helpers, all on libsodium (no hand-written codecs).
#ifndef SKILLNODE_KADEMLIA_WIRE_ENCODING_H_
#define SKILLNODE_KADEMLIA_WIRE_ENCODING_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::kademlia::wire {

// Initialises libsodium once per process; every function here calls it. Aborts if libsodium
// cannot start (no usable entropy source), since nothing secure can run then.
void EnsureSodium();

std::string HexEncode(std::span<const uint8_t> bytes);  // lower case
// Even number of hex digits, either case; anything else is an error naming the problem.
[[nodiscard]] transport::Result<std::vector<uint8_t>> HexDecode(std::string_view hex);

// Standard base64 with padding (RFC 4648 section 4).
std::string Base64Encode(std::span<const uint8_t> bytes);
[[nodiscard]] transport::Result<std::vector<uint8_t>> Base64Decode(std::string_view text);

void Sha256Into(std::span<const uint8_t> data, std::array<uint8_t, 32>& out);

inline std::span<const uint8_t> AsBytes(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

}  // namespace skillnode::kademlia::wire

#endif  // SKILLNODE_KADEMLIA_WIRE_ENCODING_H_
