// Base64url (base64url.h) through sodium_bin2base64 / sodium_base642bin.
#include "node/jose/base64url.h"

#include <sodium.h>

namespace skillnode::node::jose {

using transport::ErrorCode;
using transport::Fail;

std::string Base64UrlEncode(std::span<const uint8_t> bytes) {
  constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
  const size_t size = sodium_base64_encoded_len(bytes.size(), kVariant);  // with its NUL
  std::string out(size, '\0');
  sodium_bin2base64(out.data(), out.size(), bytes.data(), bytes.size(), kVariant);
  out.resize(size - 1);
  return out;
}

std::string Base64UrlEncode(std::string_view bytes) {
  return Base64UrlEncode(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

transport::Result<std::vector<uint8_t>> Base64UrlDecode(std::string_view text) {
  if (text.size() > kBase64UrlTextMax) {
    return Fail(ErrorCode::kParse, "base64url text of " + std::to_string(text.size()) +
                                       " characters is over the limit of " +
                                       std::to_string(kBase64UrlTextMax));
  }
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) {
      return Fail(ErrorCode::kParse, "base64url text has '" + std::string(1, c) + "' at offset " +
                                         std::to_string(i) + " (only A-Z a-z 0-9 - _, no padding)");
    }
  }
  if (text.size() % 4 == 1) {
    return Fail(ErrorCode::kParse, "base64url text of " + std::to_string(text.size()) +
                                       " characters is truncated (no encoding has 4n+1)");
  }
  std::vector<uint8_t> out(text.size() * 3 / 4 + 3);
  size_t size = 0;
  const char* end = nullptr;
  // libsodium refuses non-zero leftover bits itself (a second encoding of the same bytes).
  if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &size, &end,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size()) {
    return Fail(ErrorCode::kParse,
                "base64url text is not canonical (its last character carries bits that are not "
                "zero)");
  }
  out.resize(size);
  return out;
}

}  // namespace skillnode::node::jose
