#include "kademlia/signature_scheme.h"

namespace skillnode::kademlia {
namespace {

class Ed25519 final : public SignatureScheme {
 public:
  Signature Sign(const Identity& signer, std::span<const uint8_t> message) const override {
    return signer.Sign(message);
  }
  bool Verify(const PublicKey& public_key, std::span<const uint8_t> message,
              const Signature& signature) const override {
    return VerifySignature(public_key, message, signature);
  }
};

}  // namespace

const SignatureScheme& Ed25519Signatures() {
  static const Ed25519 scheme;  // no state: one immutable instance serves every node
  return scheme;
}

}  // namespace skillnode::kademlia
