// ES256 (ECDSA P-256 with SHA-256, RFC 7518 §3.4) and RS256 (RSASSA-PKCS1-v1_5 with SHA-256,
// §3.3) verification through OpenSSL 3's EVP interface, the key built from its JWK
// (OSSL_PARAM). EdDSA is libsodium's (jws_verifier.cpp). Stateless; safe on any thread.
#ifndef SKILLNODE_NODE_JOSE_EVP_VERIFIER_H_
#define SKILLNODE_NODE_JOSE_EVP_VERIFIER_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "node/jose/jwk.h"
#include "transport/result.h"

namespace skillnode::node::jose {

// `key` must be an EC P-256 JWK; `signature` the JWS form, R || S (64 bytes). kCrypto when the
// key is not a point of P-256 or the signature does not verify; kInvalidArgument for a wrong
// key type or signature length.
[[nodiscard]] transport::Result<void> VerifyEs256(const Jwk& key, std::string_view signing_input,
                                                  std::span<const uint8_t> signature);
// `key` must be an RSA JWK; `signature` as long as its modulus.
[[nodiscard]] transport::Result<void> VerifyRs256(const Jwk& key, std::string_view signing_input,
                                                  std::span<const uint8_t> signature);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_EVP_VERIFIER_H_
