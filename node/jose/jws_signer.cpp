// JwsSigner (jws_signer.h).
#include "node/jose/jws_signer.h"

#include <span>

#include "node/jose/base64url.h"
#include "node/jose/jcs.h"
#include "node/jose/jws_header.h"

namespace skillnode::node::jose {

using transport::ErrorCode;
using transport::Fail;

namespace {

Jwk IdentityJwk(const kademlia::Identity& identity) {
  Jwk key = Ed25519Jwk(identity.public_key(), "");
  key.kid = JwkThumbprint(key);
  return key;
}

}  // namespace

JwsSigner::JwsSigner(const kademlia::Identity& identity)
    : identity_(identity), jwk_(IdentityJwk(identity)) {}

transport::Result<FlattenedJws> JwsSigner::SignDetached(const nlohmann::json& protected_header,
                                                        std::string_view payload) const {
  auto header_text = CanonicalJson(protected_header);
  if (!header_text) return tl::unexpected(header_text.error());
  FlattenedJws jws;
  jws.protected_header = Base64UrlEncode(*header_text);
  auto checked = ParseProtectedHeader(jws.protected_header);
  if (!checked) return Fail(ErrorCode::kInvalidArgument, checked.error().message);
  if (checked->alg != Algorithm::kEdDsa) {
    return Fail(ErrorCode::kInvalidArgument,
                "JWS protected header: alg must be EdDSA to sign with an Ed25519 identity, not " +
                    std::string(AlgorithmName(checked->alg)));
  }
  const std::string input = jws.SigningInput(payload);
  const kademlia::Signature signature = identity_.Sign(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(input.data()), input.size()));
  jws.signature = Base64UrlEncode(signature);
  return jws;
}

}  // namespace skillnode::node::jose
