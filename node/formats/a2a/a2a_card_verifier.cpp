// VerifyA2aCard (a2a_card_verifier.h).
#include "node/formats/a2a/a2a_card_verifier.h"

#include <string_view>

#include "node/formats/a2a/a2a_card_signer.h"
#include "node/jose/flattened_jws.h"
#include "node/jose/jws_verifier.h"

namespace skillnode::node::formats::a2a {
namespace {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

bool Empty(const json& value) {
  return value.is_null() || (value.is_string() && value.get_ref<const std::string&>().empty()) ||
         ((value.is_array() || value.is_object()) && value.empty());
}

}  // namespace

json WithoutEmptyValues(const json& value) {
  if (value.is_array()) {
    json out = json::array();
    for (const json& item : value) {
      json cleaned = WithoutEmptyValues(item);
      if (!Empty(cleaned)) out.push_back(std::move(cleaned));
    }
    return out;
  }
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [name, item] : value.items()) {
      json cleaned = WithoutEmptyValues(item);
      if (!Empty(cleaned)) out[name] = std::move(cleaned);
    }
    return out;
  }
  return value;
}

transport::Result<VerifiedCardSignature> VerifyA2aCard(const json& card, const jose::JwkSet& keys) {
  if (!card.is_object() || !card.contains("signatures") || Empty(card["signatures"])) {
    return Fail(ErrorCode::kNotFound, "the card has no signatures");
  }
  const json& signatures = card["signatures"];
  if (!signatures.is_array()) {
    return Fail(ErrorCode::kInvalidArgument, "the card's signatures is not an array");
  }
  auto payload = A2aCardPayload(card);
  if (!payload) return tl::unexpected(payload.error());
  auto cleaned = A2aCardPayload(WithoutEmptyValues(card));
  if (!cleaned) return tl::unexpected(cleaned.error());
  std::string reasons;
  for (size_t i = 0; i < signatures.size() && i < kCardSignaturesMax; ++i) {
    const std::string where = "signatures[" + std::to_string(i) + "]: ";
    auto jws = jose::ParseFlattenedJws(signatures[i]);
    if (!jws) {
      reasons += (reasons.empty() ? "" : "; ") + where + jws.error().message;
      continue;
    }
    auto header = jose::VerifyDetached(*jws, *payload, keys);
    bool dropped = false;
    if (!header && header.error().code == ErrorCode::kCrypto && *cleaned != *payload) {
      auto again = jose::VerifyDetached(*jws, *cleaned, keys);
      if (again) header = std::move(again), dropped = true;
    }
    if (!header) {
      reasons += (reasons.empty() ? "" : "; ") + where + header.error().message;
      continue;
    }
    return VerifiedCardSignature{i, header->kid, std::string(jose::AlgorithmName(header->alg)),
                                 header->jku, dropped};
  }
  if (signatures.size() > kCardSignaturesMax) {
    reasons +=
        "; signatures past the first " + std::to_string(kCardSignaturesMax) + " were not examined";
  }
  return Fail(ErrorCode::kCrypto, "no signature of the card verifies: " + reasons);
}

}  // namespace skillnode::node::formats::a2a
