// A public JSON Web Key (RFC 7517) of the three kinds a JWS signer uses today: OKP Ed25519
// (RFC 8037: `x`), EC P-256 (RFC 7518 §6.2: `x`, `y`) and RSA (§6.3: `n`, `e`), read from and
// written as JSON, and its RFC 7638 thumbprint. Private members (`d`, `p`, ...) and symmetric
// keys (`oct`) are refused: a published key set must never carry a secret. Pure.
#ifndef SKILLNODE_NODE_JOSE_JWK_H_
#define SKILLNODE_NODE_JOSE_JWK_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/identity.h"
#include "transport/result.h"

namespace skillnode::node::jose {

// RSA moduli shorter than this are refused (RFC 7518 §3.3 requires 2048 bits for RS256), and
// longer than the second bound (a bound on the work one verification costs).
constexpr size_t kRsaModulusBitsMin = 2048;
constexpr size_t kRsaModulusBitsMax = 8192;
// kid, alg and use values longer than this are refused.
constexpr size_t kJwkTextMax = 256;

enum class KeyType { kOkp, kEc, kRsa };
std::string_view KeyTypeName(KeyType type);  // "OKP", "EC", "RSA"

struct Jwk {
  KeyType kty = KeyType::kOkp;
  std::string crv;         // "Ed25519" (OKP) or "P-256" (EC); empty for RSA
  std::vector<uint8_t> x;  // OKP: the 32-byte public key; EC: the 32-byte x coordinate
  std::vector<uint8_t> y;  // EC: the 32-byte y coordinate
  std::vector<uint8_t> n;  // RSA modulus, big-endian, no leading zero byte
  std::vector<uint8_t> e;  // RSA public exponent, big-endian
  std::string kid;         // empty: none
  std::string alg;         // empty: none (then any algorithm of its type may use it)
  std::string use;         // empty: none; else "sig" or "enc"
  bool operator==(const Jwk&) const = default;
};

// The JWK of an Ed25519 public key (a node's identity key), with alg "EdDSA", use "sig" and
// `kid` as given.
Jwk Ed25519Jwk(const kademlia::PublicKey& public_key, std::string kid);

// Reads one JWK; kInvalidArgument naming the member and the problem (missing, wrong type, bad
// base64url, wrong length, an unknown kty or crv, a private member, an RSA modulus out of
// range). Members this type does not know (x5c, key_ops, ...) are ignored.
[[nodiscard]] transport::Result<Jwk> ParseJwk(const nlohmann::json& json);
// kty, crv / x / y or n / e, and kid, alg and use when set.
nlohmann::json JwkJson(const Jwk& key);

// RFC 7638: base64url(SHA-256(the required members in lexicographic order, no white space)).
std::string JwkThumbprint(const Jwk& key);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_JWK_H_
