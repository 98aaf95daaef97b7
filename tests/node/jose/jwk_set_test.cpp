// JWK Sets (node/jose/jwk_set.h): parsed with unusable keys skipped and named, written back, and
// keys found by kid, with an unknown or shared kid an error.
#include "node/jose/jwk_set.h"

#include <catch2/catch.hpp>
#include <string>

#include "tests/node/jose/jose_vectors.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

json Rs256Key() {
  return {{"kty", "RSA"}, {"kid", vectors::kRs256Kid}, {"e", "AQAB"}, {"n", vectors::kRs256N}};
}

TEST_CASE("a key set keeps the keys it can use and names the ones it skipped", "[unit]") {
  const json set = {
      {"keys", {json::parse(vectors::kEs256Jwk), {{"kty", "oct"}, {"k", "AA"}}, Rs256Key()}}};
  auto parsed = JwkSet::Parse(set);
  REQUIRE(parsed);
  REQUIRE(parsed->keys().size() == 2);
  REQUIRE(parsed->skipped().size() == 1);
  CHECK(parsed->skipped()[0].starts_with("keys[1]: JWK member k"));
  auto es = parsed->Find("es256-key");
  REQUIRE(es);
  CHECK((*es)->kty == KeyType::kEc);
  auto rs = parsed->Find("rs256-key");
  REQUIRE(rs);
  CHECK((*rs)->kty == KeyType::kRsa);
  CHECK(parsed->Json() == json{{"keys", {json::parse(vectors::kEs256Jwk), Rs256Key()}}});
}

TEST_CASE("a kid no key has, or two keys share, is an error naming the kids", "[unit]") {
  auto set = JwkSet::Parse({{"keys", {json::parse(vectors::kEs256Jwk), Rs256Key()}}});
  REQUIRE(set);
  auto missing = set->Find("other");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == transport::ErrorCode::kNotFound);
  CHECK(missing.error().message.find("its kids: es256-key, rs256-key") != std::string::npos);
  json twice = Rs256Key();
  twice["kid"] = "es256-key";
  auto shared = JwkSet::Parse({{"keys", {json::parse(vectors::kEs256Jwk), twice}}});
  REQUIRE(shared);
  auto ambiguous = shared->Find("es256-key");
  REQUIRE_FALSE(ambiguous);
  CHECK(ambiguous.error().message.find("ambiguous") != std::string::npos);
  CHECK(JwkSet().Find("x").error().message.find("the set is empty") != std::string::npos);
}

TEST_CASE("a document that is not a key set, or too long a one, is refused", "[unit]") {
  CHECK_FALSE(JwkSet::Parse(json::array()));
  CHECK_FALSE(JwkSet::Parse({{"keys", "none"}}));
  CHECK_FALSE(JwkSet::Parse({{"kty", "OKP"}}));
  json many = {{"keys", json::array()}};
  for (size_t i = 0; i <= kJwkSetKeysMax; ++i) many["keys"].push_back(Rs256Key());
  auto refused = JwkSet::Parse(many);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("over the limit") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::jose
