#include "kademlia/wire/encoding.h"

#include <sodium.h>

#include <cctype>
#include <cstdlib>

namespace skillnode::kademlia::wire {

void EnsureSodium() {
  // A function-local static runs sodium_init exactly once, thread-safely.
  static const bool ready = sodium_init() >= 0;
  if (!ready) std::abort();
}

std::string HexEncode(std::span<const uint8_t> bytes) {
  EnsureSodium();
  std::string out(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();  // the terminating NUL
  return out;
}

transport::Result<std::vector<uint8_t>> HexDecode(std::string_view hex) {
  EnsureSodium();
  if (hex.size() % 2 != 0) {
    return transport::Fail(transport::ErrorCode::kParse,
                           "odd number of hex digits (" + std::to_string(hex.size()) + ")");
  }
  if (hex.empty()) return std::vector<uint8_t>();
  std::vector<uint8_t> out(hex.size() / 2);
  size_t length = 0;
  const char* end = nullptr;
  if (sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &length, &end) != 0 ||
      end != hex.data() + hex.size() || length != out.size()) {
    // libsodium stops at the start of the byte holding the bad digit; name the digit itself.
    size_t at = end != nullptr ? static_cast<size_t>(end - hex.data()) : 0;
    while (at < hex.size() && std::isxdigit(static_cast<unsigned char>(hex[at]))) ++at;
    return transport::Fail(transport::ErrorCode::kParse,
                           "not a hex digit at position " + std::to_string(at));
  }
  return out;
}

std::string Base64Encode(std::span<const uint8_t> bytes) {
  EnsureSodium();
  const size_t size = sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_ORIGINAL);
  std::string out(size, '\0');
  sodium_bin2base64(out.data(), out.size(), bytes.data(), bytes.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(size - 1);  // drop the terminating NUL
  return out;
}

transport::Result<std::vector<uint8_t>> Base64Decode(std::string_view text) {
  EnsureSodium();
  std::vector<uint8_t> out(text.size() / 4 * 3 + 3);
  size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &length, &end,
                        sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != text.data() + text.size()) {
    const size_t at = end != nullptr ? static_cast<size_t>(end - text.data()) : 0;
    return transport::Fail(transport::ErrorCode::kParse,
                           "invalid base64 at position " + std::to_string(at));
  }
  out.resize(length);
  return out;
}

void Sha256Into(std::span<const uint8_t> data, std::array<uint8_t, 32>& out) {
  EnsureSodium();
  static_assert(crypto_hash_sha256_BYTES == 32);
  crypto_hash_sha256(out.data(), data.data(), data.size());
}

}  // namespace skillnode::kademlia::wire
