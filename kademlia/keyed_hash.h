// KeyedHash: SipHash-2-4 (libsodium's crypto_shorthash) under a per-node secret key, for the
// tables whose keys a peer chooses: the verified-peer cache (node ids' first words) and the rate
// limiter's sources (addresses).
//
// An unkeyed hash (MixedHash, flat_linked_map.h) is the same on every node, so an attacker can
// grind node ids or pick addresses whose hashes share a home place offline and lengthen one
// probe run to the table's bound, making every datagram's lookup slow. Under a key it does not
// know, SipHash's placements cannot be predicted, so no set of ids collides on purpose.
//
// The key is drawn once per node: from the OS (libsodium randombytes) in the daemon, where the
// node's Rng is no secret (its outputs go out as transaction ids), and from the node's seeded
// Rng in the simulator and tests, so that one seed still reproduces a run (HashKeyFromCopyOf).
#ifndef SKILLNODE_KADEMLIA_KEYED_HASH_H_
#define SKILLNODE_KADEMLIA_KEYED_HASH_H_

#include <sodium.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <span>

#include "kademlia/key.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::kademlia {

using HashKey = std::array<uint8_t, crypto_shorthash_KEYBYTES>;
static_assert(crypto_shorthash_BYTES == sizeof(uint64_t), "crypto_shorthash is SipHash-2-4");

// A key from `rng` (deterministic for a seeded Rng).
inline HashKey NewHashKey(transport::Rng& rng) {
  HashKey key{};
  rng.Fill(key);
  return key;
}

// A key from a copy of `rng`, which itself does not advance: a node given no key (the simulator,
// tests) draws the same random numbers as before it had keyed tables, so every seeded run is
// unchanged. Such a key is no secret (the copy's outputs are the node's next transaction ids):
// the daemon passes one from the OS instead.
inline HashKey HashKeyFromCopyOf(const transport::Rng& rng) {
  transport::Rng copy = rng;
  return NewHashKey(copy);
}

// SipHash-2-4 of `bytes` under `key`.
inline uint64_t SipHash(std::span<const uint8_t> bytes, const HashKey& key) {
  std::array<uint8_t, crypto_shorthash_BYTES> out{};
  crypto_shorthash(out.data(), bytes.data(), bytes.size(), key.data());
  uint64_t h = 0;
  std::memcpy(&h, out.data(), sizeof h);
  return h;
}

// The bytes hashed for each key type: all of them (a node id's 32, an address's family and
// its 4 or 16).
inline uint64_t SipHashOf(const Key& id, const HashKey& key) { return SipHash(id.bytes(), key); }
// A 64-bit word (the first word of a node id: the verified-peer cache's key).
inline uint64_t SipHashOf(uint64_t word, const HashKey& key) {
  std::array<uint8_t, sizeof word> bytes{};
  std::memcpy(bytes.data(), &word, sizeof word);
  return SipHash(bytes, key);
}
inline uint64_t SipHashOf(const transport::Address& address, const HashKey& key) {
  std::array<uint8_t, 17> bytes{};
  bytes[0] = static_cast<uint8_t>(address.family());
  const auto raw = address.bytes();
  std::memcpy(bytes.data() + 1, raw.data(), raw.size());
  return SipHash(std::span<const uint8_t>(bytes.data(), 1 + raw.size()), key);
}

// A FlatLinkedMap hasher holding its key. A default-made one has the all-zero key: an unkeyed
// hash, for tables that never see peer-chosen keys and for tests.
template <typename K>
class KeyedHash {
 public:
  KeyedHash() = default;
  explicit KeyedHash(const HashKey& key) : key_(key) {}

  uint32_t operator()(const K& k) const { return static_cast<uint32_t>(SipHashOf(k, key_)); }
  const HashKey& key() const { return key_; }

 private:
  HashKey key_{};
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_KEYED_HASH_H_
