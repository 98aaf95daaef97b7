#include "kademlia/identity.h"

#include <sodium.h>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia {

static_assert(crypto_sign_PUBLICKEYBYTES == 32);
static_assert(crypto_sign_SECRETKEYBYTES == 64);
static_assert(crypto_sign_BYTES == 64);
static_assert(crypto_sign_SEEDBYTES == 32);

bool VerifySignature(const PublicKey& public_key, std::span<const uint8_t> message,
                     const Signature& signature) {
  wire::EnsureSodium();
  return crypto_sign_verify_detached(signature.data(), message.data(), message.size(),
                                     public_key.data()) == 0;
}

NodeId NodeIdOf(const PublicKey& public_key) { return Key::Sha256(public_key); }

Identity Identity::Generate() {
  wire::EnsureSodium();
  Seed seed;
  randombytes_buf(seed.data(), seed.size());
  Identity identity = FromSeed(seed);
  sodium_memzero(seed.data(), seed.size());
  return identity;
}

Identity Identity::FromSeed(const Seed& seed) {
  wire::EnsureSodium();
  Identity identity;
  identity.seed_ = seed;
  crypto_sign_seed_keypair(identity.public_key_.data(), identity.secret_key_.data(), seed.data());
  identity.node_id_ = NodeIdOf(identity.public_key_);
  return identity;
}

transport::Result<Identity> Identity::FromSeedBytes(std::span<const uint8_t> seed) {
  if (seed.size() != crypto_sign_SEEDBYTES) {
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           "an Ed25519 seed has 32 bytes, not " + std::to_string(seed.size()));
  }
  Seed copy;
  std::copy(seed.begin(), seed.end(), copy.begin());
  return FromSeed(copy);
}

Identity::~Identity() {
  sodium_memzero(secret_key_.data(), secret_key_.size());
  sodium_memzero(seed_.data(), seed_.size());
}

Signature Identity::Sign(std::span<const uint8_t> message) const {
  Signature signature;
  crypto_sign_detached(signature.data(), nullptr, message.data(), message.size(),
                       secret_key_.data());
  return signature;
}

}  // namespace skillnode::kademlia
