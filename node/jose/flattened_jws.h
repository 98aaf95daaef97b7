// A flattened JWS (RFC 7515 §7.2.2) whose payload travels apart from it ("detached", RFC 7515
// Appendix F): `protected`, `signature` and the optional unprotected `header`, exactly the
// members of an A2A AgentCardSignature (A2A v1.0 §4.4.7). Reading and writing only; signing is
// jws_signer.h, verifying jws_verifier.h.
#ifndef SKILLNODE_NODE_JOSE_FLATTENED_JWS_H_
#define SKILLNODE_NODE_JOSE_FLATTENED_JWS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "transport/result.h"

namespace skillnode::node::jose {

struct FlattenedJws {
  std::string protected_header;          // base64url of the header's JSON, as signed
  std::string signature;                 // base64url
  std::optional<nlohmann::json> header;  // the unprotected header, an object; nullopt: none

  // "BASE64URL(header) . BASE64URL(payload)": the bytes the signature covers.
  std::string SigningInput(std::string_view payload) const;
};

// kInvalidArgument naming the member: `protected` and `signature` non-empty strings, `header`
// an object when present; a `payload` member is refused (it is detached: the verifier rebuilds
// it).
[[nodiscard]] transport::Result<FlattenedJws> ParseFlattenedJws(const nlohmann::json& json);
nlohmann::json FlattenedJwsJson(const FlattenedJws& jws);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_FLATTENED_JWS_H_
