// Jwk reading, writing and thumbprints (jwk.h).
#include "node/jose/jwk.h"

#include <sodium.h>

#include <array>
#include <bit>

#include "node/jose/base64url.h"
#include "node/jose/jcs.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;
using transport::ErrorCode;
using transport::Fail;

// Members that only a private key has (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2).
constexpr std::array<const char*, 8> kPrivateMembers = {"d",  "p",  "q",   "dp",
                                                        "dq", "qi", "oth", "k"};

tl::unexpected<transport::Error> Bad(const std::string& member, const std::string& problem) {
  return Fail(ErrorCode::kInvalidArgument, "JWK member " + member + ": " + problem);
}

transport::Result<std::string> Text(const json& object, const char* member, bool required,
                                    size_t length_max = kJwkTextMax) {
  const auto it = object.find(member);
  if (it == object.end()) {
    if (required) return Bad(member, "missing");
    return std::string();
  }
  if (!it->is_string()) return Bad(member, std::string("a ") + it->type_name() + ", not a string");
  const auto& text = it->get_ref<const std::string&>();
  if (text.empty() || text.size() > length_max) {
    return Bad(member, "must have 1 to " + std::to_string(length_max) + " characters");
  }
  return text;
}

transport::Result<std::vector<uint8_t>> Bytes(const json& object, const char* member,
                                              size_t size_min, size_t size_max) {
  // The length is checked on the bytes; the text only needs to be one that can decode.
  auto text = Text(object, member, true, kBase64UrlTextMax);
  if (!text) return tl::unexpected(text.error());
  auto bytes = Base64UrlDecode(*text);
  if (!bytes) return Bad(member, bytes.error().message);
  if (bytes->size() < size_min || bytes->size() > size_max) {
    return Bad(member, std::to_string(bytes->size()) + " bytes, expected " +
                           (size_min == size_max
                                ? std::to_string(size_min)
                                : std::to_string(size_min) + " to " + std::to_string(size_max)));
  }
  return bytes;
}

transport::Result<void> ReadKeyMaterial(const json& object, Jwk& key) {
  if (key.kty == KeyType::kOkp || key.kty == KeyType::kEc) {
    auto crv = Text(object, "crv", true);
    if (!crv) return tl::unexpected(crv.error());
    const char* expected = key.kty == KeyType::kOkp ? "Ed25519" : "P-256";
    if (*crv != expected) {
      return Bad("crv", "'" + *crv + "' is not supported for kty " +
                            std::string(KeyTypeName(key.kty)) + " (only " + expected + ")");
    }
    key.crv = *crv;
    auto x = Bytes(object, "x", 32, 32);
    if (!x) return tl::unexpected(x.error());
    key.x = std::move(*x);
    if (key.kty == KeyType::kEc) {
      auto y = Bytes(object, "y", 32, 32);
      if (!y) return tl::unexpected(y.error());
      key.y = std::move(*y);
    }
    return {};
  }
  auto n = Bytes(object, "n", 1, kRsaModulusBitsMax / 8);
  if (!n) return tl::unexpected(n.error());
  if (n->front() == 0) return Bad("n", "has a leading zero byte (RFC 7518 §6.3.1.1)");
  const size_t bits = n->size() * 8 - static_cast<size_t>(std::countl_zero(n->front()));
  if (bits < kRsaModulusBitsMin) {
    return Bad("n", "an RSA modulus of " + std::to_string(bits) + " bits is under the " +
                        std::to_string(kRsaModulusBitsMin) + " RS256 requires");
  }
  auto e = Bytes(object, "e", 1, 8);
  if (!e) return tl::unexpected(e.error());
  key.n = std::move(*n);
  key.e = std::move(*e);
  return {};
}

}  // namespace

std::string_view KeyTypeName(KeyType type) {
  switch (type) {
    case KeyType::kOkp:
      return "OKP";
    case KeyType::kEc:
      return "EC";
    case KeyType::kRsa:
      return "RSA";
  }
  return "?";
}

Jwk Ed25519Jwk(const kademlia::PublicKey& public_key, std::string kid) {
  Jwk key;
  key.kty = KeyType::kOkp;
  key.crv = "Ed25519";
  key.x.assign(public_key.begin(), public_key.end());
  key.kid = std::move(kid);
  key.alg = "EdDSA";
  key.use = "sig";
  return key;
}

transport::Result<Jwk> ParseJwk(const json& object) {
  if (!object.is_object()) {
    return Fail(ErrorCode::kInvalidArgument,
                std::string("a JWK must be a JSON object, not a ") + object.type_name());
  }
  for (const char* member : kPrivateMembers) {
    if (object.contains(member)) {
      return Bad(member, "a private key member: a published key must not carry it");
    }
  }
  auto kty = Text(object, "kty", true);
  if (!kty) return tl::unexpected(kty.error());
  Jwk key;
  if (*kty == "OKP") {
    key.kty = KeyType::kOkp;
  } else if (*kty == "EC") {
    key.kty = KeyType::kEc;
  } else if (*kty == "RSA") {
    key.kty = KeyType::kRsa;
  } else {
    return Bad("kty", "'" + *kty + "' is not supported (OKP, EC, RSA)");
  }
  if (auto read = ReadKeyMaterial(object, key); !read) return tl::unexpected(read.error());
  for (auto [member, out] : {std::pair{"kid", &key.kid}, {"alg", &key.alg}, {"use", &key.use}}) {
    auto text = Text(object, member, false);
    if (!text) return tl::unexpected(text.error());
    *out = std::move(*text);
  }
  if (!key.use.empty() && key.use != "sig" && key.use != "enc") {
    return Bad("use", "'" + key.use + "' is neither sig nor enc");
  }
  return key;
}

json JwkJson(const Jwk& key) {
  json out = {{"kty", KeyTypeName(key.kty)}};
  if (key.kty == KeyType::kRsa) {
    out["n"] = Base64UrlEncode(key.n);
    out["e"] = Base64UrlEncode(key.e);
  } else {
    out["crv"] = key.crv;
    out["x"] = Base64UrlEncode(key.x);
    if (key.kty == KeyType::kEc) out["y"] = Base64UrlEncode(key.y);
  }
  if (!key.kid.empty()) out["kid"] = key.kid;
  if (!key.alg.empty()) out["alg"] = key.alg;
  if (!key.use.empty()) out["use"] = key.use;
  return out;
}

std::string JwkThumbprint(const Jwk& key) {
  json required = JwkJson(key);
  for (const char* optional : {"kid", "alg", "use"}) required.erase(optional);
  const auto canonical = CanonicalJson(required);  // ASCII names and base64url values only
  std::array<uint8_t, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const uint8_t*>(canonical->data()),
                     canonical->size());
  return Base64UrlEncode(digest);
}

}  // namespace skillnode::node::jose
