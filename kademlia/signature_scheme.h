// SignatureScheme: how a node signs and checks signatures — reply proofs and skill records.
//
// Every real node uses Ed25519 (Ed25519Signatures(), libsodium crypto_sign). The interface
// exists for the simulator: its hosts run the same node code with a scheme that has the same
// signature size and the same accept/refuse answers — only the holder of an identity's seed
// can produce a signature that verifies under its public key — at a small fraction of the
// cost (sim/hosts/ideal_signatures.h). Implementations are stateless from the caller's view and
// must outlive every node that uses them.
#ifndef SKILLNODE_KADEMLIA_SIGNATURE_SCHEME_H_
#define SKILLNODE_KADEMLIA_SIGNATURE_SCHEME_H_

#include <cstdint>
#include <span>

#include "kademlia/identity.h"

namespace skillnode::kademlia {

class SignatureScheme {
 public:
  virtual ~SignatureScheme() = default;
  virtual Signature Sign(const Identity& signer, std::span<const uint8_t> message) const = 0;
  virtual bool Verify(const PublicKey& public_key, std::span<const uint8_t> message,
                      const Signature& signature) const = 0;
};

// Ed25519 through Identity::Sign and VerifySignature. Immutable; shared by every node.
const SignatureScheme& Ed25519Signatures();

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_SIGNATURE_SCHEME_H_
