// Key: a 256-bit identifier in the Kademlia key space. Node ids and DHT keys are both Keys.
//
// A Key is 32 bytes read as a big-endian number; the distance between two keys is their XOR
// (Maymounkov & Mazieres 2002), compared as a number. A node id is the SHA-256 of the node's
// Ed25519 public key, so nobody chooses where their id lands.
#ifndef SKILLNODE_KADEMLIA_KEY_H_
#define SKILLNODE_KADEMLIA_KEY_H_

#include <array>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "transport/result.h"

namespace skillnode::kademlia {

class Key {
 public:
  static constexpr size_t kSize = 32;
  static constexpr int kBits = 256;

  Key() = default;  // all zero
  explicit Key(const std::array<uint8_t, kSize>& bytes) : bytes_(bytes) {}

  // SHA-256 of the given bytes (libsodium).
  static Key Sha256(std::span<const uint8_t> data);
  static Key Sha256(std::string_view text);

  // Exactly 32 bytes.
  [[nodiscard]] static transport::Result<Key> FromBytes(std::span<const uint8_t> bytes);
  // Exactly 64 hex digits, either case.
  [[nodiscard]] static transport::Result<Key> FromHex(std::string_view hex);

  std::string ToHex() const;
  // The first 8 hex digits, for log lines.
  std::string ShortHex() const;

  const std::array<uint8_t, kSize>& bytes() const { return bytes_; }
  std::array<uint8_t, kSize>& mutable_bytes() { return bytes_; }

  // Bit i counted from the most significant (i = 0) to the least (i = 255).
  bool Bit(int i) const;
  // The key with bit i inverted.
  Key WithBitFlipped(int i) const;
  // The first 64 bits as a number, most significant first: XOR distances that differ there
  // compare as these words do.
  uint64_t FirstWord() const { return WordAt(0); }

  // Number of leading bits this key shares with `other`: 256 when equal. This is the bucket
  // index of `other` in a routing table whose own id is this key.
  int CommonPrefixLength(const Key& other) const;

  // Numeric order of the big-endian value, which is also the order of distances. Word by word
  // for the same reason as ==: ordered maps by Key compare on every step of a search, and the
  // first word of two uniform hashes almost always decides.
  std::strong_ordering operator<=>(const Key& other) const {
    for (size_t i = 0; i < kSize; i += 8) {
      const uint64_t a = WordAt(i);
      const uint64_t b = other.WordAt(i);
      if (a != b) return a <=> b;
    }
    return std::strong_ordering::equal;
  }
  // Equality word by word: keys are compared in every table lookup, and a library memcmp
  // call costs more than the four loads.
  bool operator==(const Key& other) const {
    uint64_t a[kSize / 8];
    uint64_t b[kSize / 8];
    std::memcpy(a, bytes_.data(), kSize);
    std::memcpy(b, other.bytes_.data(), kSize);
    return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) == 0;
  }

 private:
  // The 64 bits from byte `offset` on, most significant first.
  uint64_t WordAt(size_t offset) const {
    uint64_t word = 0;
    std::memcpy(&word, bytes_.data() + offset, sizeof word);
    if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
    return word;
  }

  std::array<uint8_t, kSize> bytes_{};
};

using NodeId = Key;

// XOR distance, itself a Key so that distances compare with <.
Key Distance(const Key& a, const Key& b);

// True when `a` is strictly closer to `target` than `b`.
bool CloserTo(const Key& target, const Key& a, const Key& b);

}  // namespace skillnode::kademlia

template <>
struct std::hash<skillnode::kademlia::Key> {
  // Keys are uniformly distributed hashes already; any 8 bytes make a good hash.
  size_t operator()(const skillnode::kademlia::Key& key) const noexcept {
    size_t h = 0;
    std::memcpy(&h, key.bytes().data(), sizeof h);
    return h;
  }
};

#endif  // SKILLNODE_KADEMLIA_KEY_H_
