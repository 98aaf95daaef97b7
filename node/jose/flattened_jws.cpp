// FlattenedJws reading and writing (flattened_jws.h).
#include "node/jose/flattened_jws.h"

#include "node/jose/base64url.h"

namespace skillnode::node::jose {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

std::string FlattenedJws::SigningInput(std::string_view payload) const {
  return protected_header + "." + Base64UrlEncode(payload);
}

transport::Result<FlattenedJws> ParseFlattenedJws(const json& object) {
  if (!object.is_object()) {
    return Fail(ErrorCode::kInvalidArgument,
                std::string("a JWS must be a JSON object, not a ") + object.type_name());
  }
  FlattenedJws out;
  for (auto [member, field] :
       {std::pair{"protected", &out.protected_header}, {"signature", &out.signature}}) {
    const auto it = object.find(member);
    if (it == object.end()) {
      return Fail(ErrorCode::kInvalidArgument, std::string("JWS member ") + member + ": missing");
    }
    if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
      return Fail(ErrorCode::kInvalidArgument,
                  std::string("JWS member ") + member + ": must be a non-empty string");
    }
    *field = it->get<std::string>();
  }
  if (const auto it = object.find("header"); it != object.end()) {
    if (!it->is_object()) {
      return Fail(ErrorCode::kInvalidArgument, "JWS member header: must be an object");
    }
    out.header = *it;
  }
  if (object.contains("payload")) {
    return Fail(ErrorCode::kInvalidArgument,
                "JWS member payload: a detached JWS carries none (the verifier rebuilds it)");
  }
  return out;
}

json FlattenedJwsJson(const FlattenedJws& jws) {
  json out = {{"protected", jws.protected_header}, {"signature", jws.signature}};
  if (jws.header) out["header"] = *jws.header;
  return out;
}

}  // namespace skillnode::node::jose
