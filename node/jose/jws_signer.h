// JwsSigner: detached flattened JWS signatures with a node's Ed25519 identity key (alg EdDSA,
// RFC 8037), as a node signs its A2A Agent Cards. The protected header is written as canonical
// JSON (jcs.h), so one header and payload always give the same bytes: Ed25519 is deterministic,
// and so is the whole JWS. Holds a reference to the identity; no other state.
#ifndef SKILLNODE_NODE_JOSE_JWS_SIGNER_H_
#define SKILLNODE_NODE_JOSE_JWS_SIGNER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "kademlia/identity.h"
#include "node/jose/flattened_jws.h"
#include "node/jose/jwk.h"
#include "transport/result.h"

namespace skillnode::node::jose {

class JwsSigner {
 public:
  // `identity` must outlive the signer.
  explicit JwsSigner(const kademlia::Identity& identity);
  JwsSigner(const JwsSigner&) = delete;
  JwsSigner& operator=(const JwsSigner&) = delete;

  // The identity's public key as a JWK, its kid the RFC 7638 thumbprint.
  const Jwk& public_jwk() const { return jwk_; }
  const std::string& kid() const { return jwk_.kid; }

  // Signs `payload` under `protected_header`, which must pass ParseProtectedHeader's checks
  // with alg "EdDSA" (kInvalidArgument naming the problem otherwise). The JWS holds no payload.
  [[nodiscard]] transport::Result<FlattenedJws> SignDetached(const nlohmann::json& protected_header,
                                                             std::string_view payload) const;

 private:
  const kademlia::Identity& identity_;
  Jwk jwk_;
};

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_JWS_SIGNER_H_
