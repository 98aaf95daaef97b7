#include "kademlia/key.h"

#include <bit>
#include <cassert>
#include <cstring>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia {

Key Key::Sha256(std::span<const uint8_t> data) {
  Key key;
  wire::Sha256Into(data, key.bytes_);
  return key;
}

Key Key::Sha256(std::string_view text) {
  return Sha256(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

transport::Result<Key> Key::FromBytes(std::span<const uint8_t> bytes) {
  if (bytes.size() != kSize) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "a key has 32 bytes, not " + std::to_string(bytes.size()));
  }
  Key key;
  std::memcpy(key.bytes_.data(), bytes.data(), kSize);
  return key;
}

transport::Result<Key> Key::FromHex(std::string_view hex) {
  if (hex.size() != kSize * 2) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "a key has 64 hex digits, not " + std::to_string(hex.size()));
  }
  auto bytes = wire::HexDecode(hex);
  if (!bytes) return tl::unexpected(bytes.error());
  return FromBytes(*bytes);
}

std::string Key::ToHex() const { return wire::HexEncode(bytes_); }

std::string Key::ShortHex() const { return wire::HexEncode(std::span(bytes_).first(4)); }

bool Key::Bit(int i) const {
  assert(i >= 0 && i < kBits);
  return (bytes_[static_cast<size_t>(i / 8)] >> (7 - i % 8)) & 1;
}

Key Key::WithBitFlipped(int i) const {
  assert(i >= 0 && i < kBits);
  Key out = *this;
  out.bytes_[static_cast<size_t>(i / 8)] ^= static_cast<uint8_t>(0x80 >> (i % 8));
  return out;
}

int Key::CommonPrefixLength(const Key& other) const {
  for (size_t i = 0; i < kSize; ++i) {
    const uint8_t x = bytes_[i] ^ other.bytes_[i];
    if (x != 0) return static_cast<int>(i * 8) + std::countl_zero(x);
  }
  return kBits;
}

Key Distance(const Key& a, const Key& b) {
  std::array<uint8_t, Key::kSize> out{};
  for (size_t i = 0; i < Key::kSize; ++i) out[i] = a.bytes()[i] ^ b.bytes()[i];
  return Key(out);
}

bool CloserTo(const Key& target, const Key& a, const Key& b) {
  for (size_t i = 0; i < Key::kSize; ++i) {
    const uint8_t da = a.bytes()[i] ^ target.bytes()[i];
    const uint8_t db = b.bytes()[i] ^ target.bytes()[i];
    if (da != db) return da < db;
  }
  return false;
}

}  // namespace skillnode::kademlia
