// JwkSet (jwk_set.h).
#include "node/jose/jwk_set.h"

namespace skillnode::node::jose {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

transport::Result<JwkSet> JwkSet::Parse(const json& set) {
  if (!set.is_object() || !set.contains("keys") || !set["keys"].is_array()) {
    return Fail(ErrorCode::kInvalidArgument, "a JWK Set is an object with a \"keys\" array");
  }
  const json& keys = set["keys"];
  if (keys.size() > kJwkSetKeysMax) {
    return Fail(ErrorCode::kInvalidArgument, "a JWK Set of " + std::to_string(keys.size()) +
                                                 " keys is over the limit of " +
                                                 std::to_string(kJwkSetKeysMax));
  }
  JwkSet out;
  for (size_t i = 0; i < keys.size(); ++i) {
    auto key = ParseJwk(keys[i]);
    if (key) {
      out.keys_.push_back(std::move(*key));
    } else {
      out.skipped_.push_back("keys[" + std::to_string(i) + "]: " + key.error().message);
    }
  }
  return out;
}

json JwkSet::Json() const {
  json keys = json::array();
  for (const Jwk& key : keys_) keys.push_back(JwkJson(key));
  return {{"keys", std::move(keys)}};
}

transport::Result<const Jwk*> JwkSet::Find(std::string_view kid) const {
  const Jwk* found = nullptr;
  std::string kids;
  for (const Jwk& key : keys_) {
    kids += (kids.empty() ? "" : ", ") + (key.kid.empty() ? std::string("(none)") : key.kid);
    if (key.kid != kid) continue;
    if (found != nullptr) {
      return Fail(ErrorCode::kInvalidArgument,
                  "two keys of the set have kid " + std::string(kid) + ": ambiguous");
    }
    found = &key;
  }
  if (found == nullptr) {
    return Fail(ErrorCode::kNotFound,
                "no key of the set has kid " + std::string(kid) + " (" +
                    (kids.empty() ? "the set is empty" : "its kids: " + kids) + ")");
  }
  return found;
}

}  // namespace skillnode::node::jose
