// IdealSignatures: the simulator's signature scheme, an "ideal signature" oracle.
//
// The simulator knows every identity it creates (Register), so a signature can be a keyed
// hash of the message under the signer's secret seed — BLAKE2b-512 (libsodium
// crypto_generichash), 64 bytes like Ed25519's — and verifying recomputes it for the public
// key's seed. It answers exactly as Ed25519 does for everything a simulated host can do: a
// host signs only with its own identity, so a record or proof it forges in another's name,
// or alters after signing, does not verify; a public key the simulator never issued verifies
// nothing. It costs about a microsecond instead of Ed25519's tens (first-contact proofs were
// 86 % of a churn run's instructions; docs/simulation.md "Scale"). Scenarios choose it with
// `crypto: ideal` (the default) or run the real Ed25519 with `crypto: ed25519`; the trace is
// the same either way. One per simulation; not thread-safe.
#ifndef SKILLNODE_SIM_HOSTS_IDEAL_SIGNATURES_H_
#define SKILLNODE_SIM_HOSTS_IDEAL_SIGNATURES_H_

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>

#include "kademlia/signature_scheme.h"

namespace skillnode::sim::hosts {

class IdealSignatures final : public kademlia::SignatureScheme {
 public:
  // Makes `identity`'s signatures verifiable. Registering the same identity again is harmless.
  void Register(const kademlia::Identity& identity);
  size_t identities() const { return seeds_.size(); }

  // Key pairs an adversary computed in advance (sybil.h), too many to register one by one:
  // the secret seed of such a public key is DerivedSeed(secret, key). Once accepted, a key
  // the simulator never registered verifies signatures made with its derived seed. Call
  // before the run starts.
  void AcceptDerivedKeys(const kademlia::Seed& secret);
  static kademlia::Seed DerivedSeed(const kademlia::Seed& secret, const kademlia::PublicKey& key);
  // A signature under the key pair whose secret seed is `seed`.
  static kademlia::Signature SignWithSeed(const kademlia::Seed& seed,
                                          std::span<const uint8_t> message) {
    return Mac(seed, message);
  }

  kademlia::Signature Sign(const kademlia::Identity& signer,
                           std::span<const uint8_t> message) const override;
  bool Verify(const kademlia::PublicKey& public_key, std::span<const uint8_t> message,
              const kademlia::Signature& signature) const override;

 private:
  struct KeyHash {
    size_t operator()(const kademlia::PublicKey& key) const;
  };
  static kademlia::Signature Mac(const kademlia::Seed& seed, std::span<const uint8_t> message);

  std::unordered_map<kademlia::PublicKey, kademlia::Seed, KeyHash> seeds_;
  std::optional<kademlia::Seed> derived_secret_;
};

}  // namespace skillnode::sim::hosts

#endif  // SKILLNODE_SIM_HOSTS_IDEAL_SIGNATURES_H_
