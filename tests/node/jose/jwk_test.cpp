// JWKs (node/jose/jwk.h): the three key kinds read and written back, RFC 7638's and RFC 8037's
// thumbprints, and every malformed or secret-bearing key refused naming the member.
#include "node/jose/jwk.h"

#include <catch2/catch.hpp>
#include <string>

#include "node/jose/base64url.h"
#include "tests/node/jose/jose_vectors.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

json Rfc7638Key() {
  return {{"kty", "RSA"},
          {"alg", "RS256"},
          {"kid", "2011-04-29"},
          {"e", "AQAB"},
          {"n", vectors::kRfc7638N}};
}

std::string ErrorOf(const json& key) {
  auto parsed = ParseJwk(key);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().code == transport::ErrorCode::kInvalidArgument);
  return parsed.error().message;
}

TEST_CASE("an RSA key reads and gives RFC 7638's example thumbprint", "[unit]") {
  auto key = ParseJwk(Rfc7638Key());
  REQUIRE(key);
  CHECK(key->kty == KeyType::kRsa);
  CHECK(key->n.size() == 256);
  CHECK(key->kid == "2011-04-29");
  CHECK(key->alg == "RS256");
  CHECK(JwkThumbprint(*key) == vectors::kRfc7638Thumbprint);
  CHECK(JwkJson(*key) == Rfc7638Key());
}

TEST_CASE("an Ed25519 key gives RFC 8037's thumbprint, whatever its kid, alg and use", "[unit]") {
  auto x = Base64UrlDecode(vectors::kRfc8037X);
  REQUIRE(x);
  kademlia::PublicKey public_key{};
  std::copy(x->begin(), x->end(), public_key.begin());
  const Jwk key = Ed25519Jwk(public_key, "any-kid");
  CHECK(JwkThumbprint(key) == vectors::kRfc8037Thumbprint);
  CHECK(JwkJson(key) == json{{"kty", "OKP"},
                             {"crv", "Ed25519"},
                             {"x", vectors::kRfc8037X},
                             {"kid", "any-kid"},
                             {"alg", "EdDSA"},
                             {"use", "sig"}});
  auto back = ParseJwk(JwkJson(key));
  REQUIRE(back);
  CHECK(*back == key);
}

TEST_CASE("an EC P-256 key reads x and y and writes them back", "[unit]") {
  const json text = json::parse(vectors::kEs256Jwk);
  auto key = ParseJwk(text);
  REQUIRE(key);
  CHECK(key->kty == KeyType::kEc);
  CHECK(key->crv == "P-256");
  CHECK(key->x.size() == 32);
  CHECK(key->y.size() == 32);
  CHECK(JwkJson(*key) == text);
}

TEST_CASE("keys that carry a private member or a shared secret are refused", "[unit]") {
  json with_d = json::parse(vectors::kEs256Jwk);
  with_d["d"] = "AAAA";
  CHECK(ErrorOf(with_d).find("member d: a private key member") != std::string::npos);
  CHECK(ErrorOf({{"kty", "oct"}, {"k", "c2VjcmV0"}}).find("member k") != std::string::npos);
  CHECK(ErrorOf({{"kty", "oct"}}).find("'oct' is not supported") != std::string::npos);
}

TEST_CASE("malformed keys are refused naming the member and the problem", "[unit]") {
  const json ec = json::parse(vectors::kEs256Jwk);
  CHECK(ErrorOf(json::array()).find("must be a JSON object") != std::string::npos);
  CHECK(ErrorOf({{"crv", "P-256"}}).find("member kty: missing") != std::string::npos);
  CHECK(ErrorOf({{"kty", 7}}).find("member kty: a number, not a string") != std::string::npos);
  json p384 = ec;
  p384["crv"] = "P-384";
  CHECK(ErrorOf(p384).find("member crv: 'P-384' is not supported") != std::string::npos);
  json short_x = ec;
  short_x["x"] = "AAAA";
  CHECK(ErrorOf(short_x).find("member x: 3 bytes, expected 32") != std::string::npos);
  json no_y = ec;
  no_y.erase("y");
  CHECK(ErrorOf(no_y).find("member y: missing") != std::string::npos);
  json padded = ec;
  padded["x"] = padded["x"].get<std::string>() + "=";
  CHECK(ErrorOf(padded).find("member x: base64url") != std::string::npos);
  json bad_use = ec;
  bad_use["use"] = "wrap";
  CHECK(ErrorOf(bad_use).find("member use: 'wrap'") != std::string::npos);
  json x448 = {{"kty", "OKP"}, {"crv", "X25519"}, {"x", vectors::kRfc8037X}};
  CHECK(ErrorOf(x448).find("'X25519' is not supported for kty OKP") != std::string::npos);
}

TEST_CASE("RSA moduli under 2048 bits or with a leading zero byte are refused", "[unit]") {
  json rsa = Rfc7638Key();
  auto n = Base64UrlDecode(vectors::kRfc7638N);
  REQUIRE(n);
  std::vector<uint8_t> short_n(n->begin(), n->begin() + 128);
  rsa["n"] = Base64UrlEncode(short_n);
  CHECK(ErrorOf(rsa).find("1024 bits is under the 2048") != std::string::npos);
  std::vector<uint8_t> zero_n = {0};
  zero_n.insert(zero_n.end(), n->begin(), n->end());
  rsa["n"] = Base64UrlEncode(zero_n);
  CHECK(ErrorOf(rsa).find("leading zero byte") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::jose
