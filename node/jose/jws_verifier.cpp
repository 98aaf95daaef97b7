// VerifyDetached (jws_verifier.h).
#include "node/jose/jws_verifier.h"

#include <sodium.h>

#include <string>

#include "node/jose/base64url.h"
#include "node/jose/evp_verifier.h"

namespace skillnode::node::jose {
namespace {

using transport::ErrorCode;
using transport::Fail;

transport::Result<void> VerifyEdDsa(const Jwk& key, std::string_view input,
                                    std::span<const uint8_t> signature) {
  if (key.kty != KeyType::kOkp || key.crv != "Ed25519" ||
      key.x.size() != crypto_sign_PUBLICKEYBYTES) {
    return Fail(ErrorCode::kInvalidArgument, "EdDSA needs an OKP Ed25519 key, not " +
                                                 std::string(KeyTypeName(key.kty)) + " " + key.crv);
  }
  if (signature.size() != crypto_sign_BYTES) {
    return Fail(ErrorCode::kInvalidArgument,
                "an Ed25519 signature has 64 bytes, not " + std::to_string(signature.size()));
  }
  if (crypto_sign_verify_detached(signature.data(), reinterpret_cast<const uint8_t*>(input.data()),
                                  input.size(), key.x.data()) != 0) {
    return Fail(ErrorCode::kCrypto, "the EdDSA signature does not verify");
  }
  return {};
}

// The unprotected header may not repeat a protected member (RFC 7515 §7.2.1).
transport::Result<void> CheckDisjoint(const FlattenedJws& jws, const ProtectedHeader& header) {
  if (!jws.header) return {};
  for (const auto& [name, value] : jws.header->items()) {
    if (header.json.contains(name)) {
      return Fail(ErrorCode::kInvalidArgument,
                  "JWS header member " + name + " is both protected and unprotected");
    }
  }
  return {};
}

}  // namespace

transport::Result<ProtectedHeader> VerifyDetached(const FlattenedJws& jws, std::string_view payload,
                                                  const Jwk& key) {
  auto header = ParseProtectedHeader(jws.protected_header);
  if (!header) return header;
  if (auto disjoint = CheckDisjoint(jws, *header); !disjoint) {
    return tl::unexpected(disjoint.error());
  }
  if (!key.kid.empty() && key.kid != header->kid) {
    return Fail(ErrorCode::kInvalidArgument,
                "kid mismatch: the JWS names " + header->kid + ", the key is " + key.kid);
  }
  const std::string alg(AlgorithmName(header->alg));
  if (!key.alg.empty() && key.alg != alg) {
    return Fail(ErrorCode::kInvalidArgument,
                "key " + key.kid + " is for alg " + key.alg + ", the JWS uses " + alg);
  }
  if (!key.use.empty() && key.use != "sig") {
    return Fail(ErrorCode::kInvalidArgument,
                "key " + key.kid + " is for use " + key.use + ", not sig");
  }
  auto signature = Base64UrlDecode(jws.signature);
  if (!signature) {
    return Fail(ErrorCode::kInvalidArgument, "JWS signature: " + signature.error().message);
  }
  const std::string input = jws.SigningInput(payload);
  transport::Result<void> verified;
  switch (header->alg) {
    case Algorithm::kEdDsa:
      verified = VerifyEdDsa(key, input, *signature);
      break;
    case Algorithm::kEs256:
      verified = VerifyEs256(key, input, *signature);
      break;
    case Algorithm::kRs256:
      verified = VerifyRs256(key, input, *signature);
      break;
  }
  if (!verified) {
    return Fail(verified.error().code, "kid " + header->kid + ": " + verified.error().message);
  }
  return header;
}

transport::Result<ProtectedHeader> VerifyDetached(const FlattenedJws& jws, std::string_view payload,
                                                  const JwkSet& keys) {
  auto header = ParseProtectedHeader(jws.protected_header);
  if (!header) return header;
  auto key = keys.Find(header->kid);
  if (!key) return tl::unexpected(key.error());
  return VerifyDetached(jws, payload, **key);
}

}  // namespace skillnode::node::jose
