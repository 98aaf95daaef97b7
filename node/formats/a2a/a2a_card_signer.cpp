// A2aCardSigner (a2a_card_signer.h).
#include "node/formats/a2a/a2a_card_signer.h"

#include "node/jose/flattened_jws.h"
#include "node/jose/jcs.h"

namespace skillnode::node::formats::a2a {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

transport::Result<std::string> A2aCardPayload(const json& card) {
  if (!card.is_object()) {
    return Fail(ErrorCode::kInvalidArgument,
                std::string("an Agent Card is a JSON object, not a ") + card.type_name());
  }
  json unsigned_card = card;
  unsigned_card.erase("signatures");
  return jose::CanonicalJson(unsigned_card);
}

A2aCardSigner::A2aCardSigner(const kademlia::Identity& identity)
    : signer_(identity), jwks_({signer_.public_jwk()}) {}

transport::Result<json> A2aCardSigner::Sign(json card, const std::string& jku) const {
  auto payload = A2aCardPayload(card);
  if (!payload) return tl::unexpected(payload.error());
  const json header = {{"alg", "EdDSA"}, {"kid", signer_.kid()}, {"typ", "JOSE"}, {"jku", jku}};
  auto jws = signer_.SignDetached(header, *payload);
  if (!jws) return tl::unexpected(jws.error());
  card["signatures"] = json::array({jose::FlattenedJwsJson(*jws)});
  return card;
}

}  // namespace skillnode::node::formats::a2a
