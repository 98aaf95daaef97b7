// JwkSet: a JWK Set (RFC 7517 §5), `{"keys": [...]}`, as a node publishes its own key at
// /.well-known/jwks.json and as a verifier reads another's. Keys of a kind jwk.h does not
// support are skipped, as §5 advises, and reported by skipped(); Find() looks a key up by kid.
#ifndef SKILLNODE_NODE_JOSE_JWK_SET_H_
#define SKILLNODE_NODE_JOSE_JWK_SET_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "node/jose/jwk.h"
#include "transport/result.h"

namespace skillnode::node::jose {

// Keys read from one set at most; a longer set is refused (a bound on a hostile document).
constexpr size_t kJwkSetKeysMax = 64;

class JwkSet {
 public:
  JwkSet() = default;
  explicit JwkSet(std::vector<Jwk> keys) : keys_(std::move(keys)) {}

  // kInvalidArgument when `json` is not an object with a "keys" array of at most
  // kJwkSetKeysMax entries; a key that does not parse is skipped, its reason kept.
  [[nodiscard]] static transport::Result<JwkSet> Parse(const nlohmann::json& json);

  nlohmann::json Json() const;

  // The key whose kid is `kid`: kNotFound naming the kids there are when none has it, and
  // kInvalidArgument when two keys share it (the set does not say which one signed).
  [[nodiscard]] transport::Result<const Jwk*> Find(std::string_view kid) const;

  const std::vector<Jwk>& keys() const { return keys_; }
  // "keys[2]: JWK member kty: 'oct' is not supported ..." for each key Parse skipped.
  const std::vector<std::string>& skipped() const { return skipped_; }

 private:
  std::vector<Jwk> keys_;
  std::vector<std::string> skipped_;
};

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_JWK_SET_H_
