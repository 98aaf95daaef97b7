// CardKeys: where an imported card's key set is, and the card's plans once it verifies
// (card_keys.h).
#include "node/importers/card_keys.h"

#include "node/bounded_json.h"
#include "node/formats/a2a/a2a_card_verifier.h"
#include "node/importers/import_source.h"
#include "node/importers/plans/a2a_plan.h"
#include "node/importers/source_domain_prover.h"
#include "node/jose/jws_header.h"

namespace skillnode::node::importers {
namespace {

constexpr size_t kKeysJsonDepthMax = 64;

}  // namespace

transport::Result<std::optional<std::string>> CardKeysUrl(const documents::A2aCardDocument& card,
                                                          const std::string& card_url) {
  if (card.signatures.empty()) return std::nullopt;
  auto header = jose::ParseProtectedHeader(card.signatures.front().protected_header);
  if (!header || !header->jku) return std::nullopt;
  auto keys_url = ResolveUrl(card_url, *header->jku);
  if (!keys_url) return transport::Fail(keys_url.error().code, keys_url.error().message);
  return std::optional<std::string>(*keys_url);
}

transport::Result<CardPlans> PlanSignedCard(const documents::A2aCardDocument& card,
                                            const std::string& card_bytes,
                                            const std::string& card_url,
                                            std::string_view keys_bytes,
                                            const std::string& keys_url) {
  auto json = ParseBoundedJson(keys_bytes, kKeysJsonDepthMax, keys_url);
  if (!json) return transport::Fail(json.error().code, json.error().message);
  auto keys = jose::JwkSet::Parse(*json);
  if (!keys) return transport::Fail(keys.error().code, keys_url + ": " + keys.error().message);
  auto verified = formats::a2a::VerifyA2aCard(card.json, *keys);
  if (!verified) {
    return transport::Fail(transport::ErrorCode::kCrypto,
                           card_url + ": no signature of the card verifies with the keys at " +
                               keys_url + ": " + verified.error().message);
  }
  plans::A2aProvenance provenance{card_url, HostOf(card_url),
                                  kademlia::store::OriginSignature::kVerified};
  const auto signer = SourceDomainProver::Ed25519SignerOf(*keys, *verified);
  CardPlans planned = plans::PlanA2aCard(card, card_bytes, provenance);
  for (auto& plan : planned) {
    if (plan) plan->document_signer = signer;
  }
  return planned;
}

CardPlans PlanUnsignedCard(const documents::A2aCardDocument& card, const std::string& card_bytes,
                           const std::string& card_url) {
  plans::A2aProvenance provenance{card_url, HostOf(card_url),
                                  kademlia::store::OriginSignature::kUnsigned};
  return plans::PlanA2aCard(card, card_bytes, provenance);
}

}  // namespace skillnode::node::importers
