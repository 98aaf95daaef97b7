// Protected header checks (jws_header.h).
#include "node/jose/jws_header.h"

#include <string>

#include "node/jose/base64url.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

tl::unexpected<transport::Error> Bad(const std::string& problem,
                                     ErrorCode code = ErrorCode::kInvalidArgument) {
  return Fail(code, "JWS protected header: " + problem);
}

// The member as a non-empty string; the error names it.
transport::Result<std::string> RequiredText(const json& header, const char* member) {
  const auto it = header.find(member);
  if (it == header.end()) return Bad(std::string("lacks ") + member);
  if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
    return Bad(std::string(member) + " must be a non-empty string");
  }
  return it->get<std::string>();
}

}  // namespace

std::string_view AlgorithmName(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kEdDsa:
      return "EdDSA";
    case Algorithm::kEs256:
      return "ES256";
    case Algorithm::kRs256:
      return "RS256";
  }
  return "?";
}

transport::Result<Algorithm> ParseAlgorithm(std::string_view name) {
  if (name == "EdDSA") return Algorithm::kEdDsa;
  if (name == "ES256") return Algorithm::kEs256;
  if (name == "RS256") return Algorithm::kRs256;
  const std::string quoted = "alg '" + std::string(name) + "'";
  if (name == "none" || name == "None" || name == "NONE") {
    return Fail(ErrorCode::kRefused, quoted + " is refused: an unsigned JWS proves nothing");
  }
  if (name.starts_with("HS")) {
    return Fail(ErrorCode::kRefused,
                quoted + " is refused: an HMAC is a shared secret, not a publisher's signature");
  }
  return Fail(ErrorCode::kUnsupported, quoted + " is not supported (EdDSA, ES256, RS256)");
}

transport::Result<ProtectedHeader> ParseProtectedHeader(std::string_view encoded) {
  if (encoded.empty()) return Bad("is empty");
  if (encoded.size() > kProtectedHeaderTextMax) {
    return Bad(std::to_string(encoded.size()) + " characters is over the limit of " +
               std::to_string(kProtectedHeaderTextMax));
  }
  auto bytes = Base64UrlDecode(encoded);
  if (!bytes) return Bad(bytes.error().message);
  json header = json::parse(bytes->begin(), bytes->end(), nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object()) return Bad("is not a JSON object");
  auto alg_name = RequiredText(header, "alg");
  if (!alg_name) return tl::unexpected(alg_name.error());
  auto alg = ParseAlgorithm(*alg_name);
  if (!alg) return Bad(alg.error().message, alg.error().code);
  auto kid = RequiredText(header, "kid");
  if (!kid) return tl::unexpected(kid.error());
  auto typ = RequiredText(header, "typ");
  if (!typ) return tl::unexpected(typ.error());
  if (header.contains("crit")) {
    return Bad("crit names extensions this verifier does not understand (RFC 7515 §4.1.11)",
               ErrorCode::kUnsupported);
  }
  if (header.contains("b64")) {
    return Bad("b64 (an unencoded payload, RFC 7797) is not supported", ErrorCode::kUnsupported);
  }
  ProtectedHeader out;
  out.alg = *alg;
  out.kid = std::move(*kid);
  out.typ = std::move(*typ);
  if (header.contains("jku")) {
    auto jku = RequiredText(header, "jku");
    if (!jku) return tl::unexpected(jku.error());
    out.jku = std::move(*jku);
  }
  out.json = std::move(header);
  return out;
}

}  // namespace skillnode::node::jose
