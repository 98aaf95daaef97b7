// A2aCardSigner: signs an A2A Agent Card as A2A v1.0 §8.4 says, with the node's Ed25519
// identity key: one AgentCardSignature {protected, signature}, a flattened JWS whose payload,
// left out, is the RFC 8785 canonical JSON of the card without `signatures`. The protected
// header is {alg "EdDSA", kid, typ "JOSE", jku}: kid is the RFC 7638 thumbprint of the node's
// key as a JWK, jku the URL of the JWK Set (JWKS) the node publishes it in. Also renders that
// JWKS. Deterministic: the same card and jku always give the same signature (Ed25519).
#ifndef SKILLNODE_NODE_FORMATS_A2A_CARD_SIGNER_H_
#define SKILLNODE_NODE_FORMATS_A2A_CARD_SIGNER_H_

#include <nlohmann/json.hpp>
#include <string>

#include "kademlia/identity.h"
#include "node/jose/jwk_set.h"
#include "node/jose/jws_signer.h"
#include "transport/result.h"

namespace skillnode::node::formats::a2a {

// Where a node publishes its JWKS, under its base URL.
inline constexpr const char* kJwksPath = "/.well-known/jwks.json";

// The canonical bytes a card's signatures cover: RFC 8785 over the card without `signatures`.
// kInvalidArgument (from jcs.h) when the card has no canonical form.
[[nodiscard]] transport::Result<std::string> A2aCardPayload(const nlohmann::json& card);

class A2aCardSigner {
 public:
  // `identity` must outlive the signer.
  explicit A2aCardSigner(const kademlia::Identity& identity);
  A2aCardSigner(const A2aCardSigner&) = delete;
  A2aCardSigner& operator=(const A2aCardSigner&) = delete;

  // The card with `signatures` set to this node's one signature (any earlier ones replaced),
  // `jku` naming the JWKS URL to put in the header. `card` must be an object with a canonical
  // form (kInvalidArgument otherwise).
  [[nodiscard]] transport::Result<nlohmann::json> Sign(nlohmann::json card,
                                                       const std::string& jku) const;

  // {"keys": [the node's key: kty OKP, crv Ed25519, x, kid, alg EdDSA, use sig]}.
  const jose::JwkSet& jwks() const { return jwks_; }
  const std::string& kid() const { return signer_.kid(); }

 private:
  jose::JwsSigner signer_;
  jose::JwkSet jwks_;
};

}  // namespace skillnode::node::formats::a2a

#endif  // SKILLNODE_NODE_FORMATS_A2A_CARD_SIGNER_H_
