// Checking the signatures of an A2A Agent Card (A2A v1.0 §8.4.3) against keys the caller trusts
// (a JWK Set it pinned or fetched: a card's `jku` is only a hint, and fetching it is the
// caller's decision). The payload is rebuilt as RFC 8785 JSON of the card without
// `signatures`, as served; a signature made by the A2A JS SDK, whose canonicalization first
// drops every empty string, array and object and null, is checked against that form too.
// At least one signature must verify. Pure; for the A2A importer and for tests.
#ifndef SKILLNODE_NODE_FORMATS_A2A_CARD_VERIFIER_H_
#define SKILLNODE_NODE_FORMATS_A2A_CARD_VERIFIER_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "node/jose/jwk_set.h"
#include "transport/result.h"

namespace skillnode::node::formats::a2a {

// Signatures of one card examined at most (A2A allows several, for key rotation).
constexpr size_t kCardSignaturesMax = 8;

struct VerifiedCardSignature {
  size_t index = 0;  // in `signatures`
  std::string kid;
  std::string alg;
  std::optional<std::string> jku;
  // True when it verified only over the card with its empty values dropped (the JS SDK form).
  bool empty_values_dropped = false;
};

// `card` without empty strings, arrays and objects and nulls, recursively (what the A2A JS
// SDK's cleanEmpty leaves).
nlohmann::json WithoutEmptyValues(const nlohmann::json& card);

// The first signature that verifies with a key of `keys`. Errors: kNotFound when the card has
// no `signatures` (or an empty one); kInvalidArgument when it is not an array or the card has
// no canonical form; else kCrypto listing why each signature failed ("signatures[0]: kid k1:
// the EdDSA signature does not verify; ...").
[[nodiscard]] transport::Result<VerifiedCardSignature> VerifyA2aCard(const nlohmann::json& card,
                                                                     const jose::JwkSet& keys);

}  // namespace skillnode::node::formats::a2a

#endif  // SKILLNODE_NODE_FORMATS_A2A_CARD_VERIFIER_H_
