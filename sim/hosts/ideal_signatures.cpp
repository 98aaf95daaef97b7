#include "sim/hosts/ideal_signatures.h"

#include <sodium.h>

#include <cstring>

namespace skillnode::sim::hosts {

size_t IdealSignatures::KeyHash::operator()(const kademlia::PublicKey& key) const {
  size_t h;  // an Ed25519 public key is uniformly distributed: its first bytes are a hash
  std::memcpy(&h, key.data(), sizeof h);
  return h;
}

void IdealSignatures::Register(const kademlia::Identity& identity) {
  seeds_.try_emplace(identity.public_key(), identity.seed());
}

void IdealSignatures::AcceptDerivedKeys(const kademlia::Seed& secret) { derived_secret_ = secret; }

kademlia::Seed IdealSignatures::DerivedSeed(const kademlia::Seed& secret,
                                            const kademlia::PublicKey& key) {
  kademlia::Seed seed;
  crypto_generichash(seed.data(), seed.size(), key.data(), key.size(), secret.data(),
                     secret.size());
  return seed;
}

kademlia::Signature IdealSignatures::Mac(const kademlia::Seed& seed,
                                         std::span<const uint8_t> message) {
  static_assert(kademlia::Signature{}.size() == crypto_generichash_BYTES_MAX);
  kademlia::Signature mac;
  crypto_generichash(mac.data(), mac.size(), message.data(), message.size(), seed.data(),
                     seed.size());
  return mac;
}

kademlia::Signature IdealSignatures::Sign(const kademlia::Identity& signer,
                                          std::span<const uint8_t> message) const {
  return Mac(signer.seed(), message);
}

bool IdealSignatures::Verify(const kademlia::PublicKey& public_key,
                             std::span<const uint8_t> message,
                             const kademlia::Signature& signature) const {
  const auto it = seeds_.find(public_key);
  kademlia::Seed seed;
  if (it != seeds_.end()) {
    seed = it->second;
  } else if (derived_secret_) {
    seed = DerivedSeed(*derived_secret_, public_key);
  } else {
    return false;
  }
  const kademlia::Signature expected = Mac(seed, message);
  return sodium_memcmp(expected.data(), signature.data(), expected.size()) == 0;
}

}  // namespace skillnode::sim::hosts
