// Identity: a node's (or a publisher's) Ed25519 key pair, and the node id derived from it.
//
// The node id is SHA-256 of the public key (docs/architecture.md "Ids and identities"), so an id
// cannot be chosen freely and any peer can check it. Signatures are Ed25519 (libsodium
// crypto_sign). Saving to disk is bootstrap/'s job (identity_file.h); this type does no I/O.
#ifndef SKILLNODE_KADEMLIA_IDENTITY_H_
#define SKILLNODE_KADEMLIA_IDENTITY_H_

#include <array>
#include <cstdint>
#include <span>

#include "kademlia/key.h"
#include "transport/result.h"

namespace skillnode::kademlia {

using PublicKey = std::array<uint8_t, 32>;
using Signature = std::array<uint8_t, 64>;
using Seed = std::array<uint8_t, 32>;

// Verifies an Ed25519 signature over `message`.
bool VerifySignature(const PublicKey& public_key, std::span<const uint8_t> message,
                     const Signature& signature);

// The node id a public key stands for: SHA-256(public_key).
NodeId NodeIdOf(const PublicKey& public_key);

class Identity {
 public:
  // A fresh key pair from the operating system's entropy.
  static Identity Generate();
  // The same seed always gives the same key pair (the simulator derives seeds from its Rng).
  static Identity FromSeed(const Seed& seed);
  // Exactly 32 bytes of seed.
  [[nodiscard]] static transport::Result<Identity> FromSeedBytes(std::span<const uint8_t> seed);

  Identity(const Identity&) = default;
  Identity& operator=(const Identity&) = default;
  ~Identity();  // wipes the secret key

  const PublicKey& public_key() const { return public_key_; }
  const NodeId& node_id() const { return node_id_; }
  const Seed& seed() const { return seed_; }

  Signature Sign(std::span<const uint8_t> message) const;

 private:
  Identity() = default;

  Seed seed_{};
  PublicKey public_key_{};
  std::array<uint8_t, 64> secret_key_{};
  NodeId node_id_;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_IDENTITY_H_
