// A JWS protected header (RFC 7515 §4) as skillnode accepts one: `alg` one of the asymmetric
// algorithms it verifies (EdDSA, ES256, RS256; never "none" or an HMAC), `kid` naming the key
// and `typ` present, as A2A card signatures require (A2A v1.0 §8.4.2); no `crit` extension and
// no unencoded payload (RFC 7797 `b64`). Pure.
#ifndef SKILLNODE_NODE_JOSE_JWS_HEADER_H_
#define SKILLNODE_NODE_JOSE_JWS_HEADER_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "transport/result.h"

namespace skillnode::node::jose {

// A protected header's base64url text longer than this is refused.
constexpr size_t kProtectedHeaderTextMax = 4096;

enum class Algorithm { kEdDsa, kEs256, kRs256 };
std::string_view AlgorithmName(Algorithm algorithm);  // "EdDSA", "ES256", "RS256"
// kRefused for "none" and the HMAC algorithms (HS256...: a shared secret proves nothing to a
// third party, and a public key used as one forges anything), kUnsupported for any other
// name than the three.
[[nodiscard]] transport::Result<Algorithm> ParseAlgorithm(std::string_view name);

struct ProtectedHeader {
  Algorithm alg = Algorithm::kEdDsa;
  std::string kid;
  std::string typ;
  std::optional<std::string> jku;  // a JWK Set URL: a hint, never trusted by itself
  nlohmann::json json;             // every member, as signed
};

// Decodes and checks a protected header; the error names the member and the problem.
[[nodiscard]] transport::Result<ProtectedHeader> ParseProtectedHeader(std::string_view encoded);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_JWS_HEADER_H_
