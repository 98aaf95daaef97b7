// Verification of a detached flattened JWS (flattened_jws.h) over a payload the caller rebuilt:
// the protected header's checks (jws_header.h), the key named by its kid (from a JwkSet, or
// one Jwk whose kid must match), the key's own alg and use, then the signature: EdDSA with
// libsodium, ES256 and RS256 with OpenSSL (evp_verifier.h). Pure; no key fetching (a `jku`
// is the caller's business, and only a hint).
#ifndef SKILLNODE_NODE_JOSE_JWS_VERIFIER_H_
#define SKILLNODE_NODE_JOSE_JWS_VERIFIER_H_

#include <string_view>

#include "node/jose/flattened_jws.h"
#include "node/jose/jwk.h"
#include "node/jose/jwk_set.h"
#include "node/jose/jws_header.h"
#include "transport/result.h"

namespace skillnode::node::jose {

// The checked protected header when `jws` is a valid signature of `payload` by `key`. Errors
// name the problem: the header's (alg none or HMAC: kRefused; a missing alg, kid or typ:
// kInvalidArgument), a kid that is not the key's ("kid mismatch"), an unprotected header that
// repeats a protected member, a key whose alg or use forbids this, a bad signature (kCrypto).
[[nodiscard]] transport::Result<ProtectedHeader> VerifyDetached(const FlattenedJws& jws,
                                                                std::string_view payload,
                                                                const Jwk& key);
// The same with the key the header's kid names in `keys` (kNotFound when none).
[[nodiscard]] transport::Result<ProtectedHeader> VerifyDetached(const FlattenedJws& jws,
                                                                std::string_view payload,
                                                                const JwkSet& keys);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_JWS_VERIFIER_H_
