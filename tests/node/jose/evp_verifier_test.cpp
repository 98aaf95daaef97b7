// ES256 and RS256 through OpenSSL (node/jose/evp_verifier.h), on signatures the npm package jose
// made (jose_vectors.h): they verify, and any change of input, signature or key fails.
#include "node/jose/evp_verifier.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "node/jose/base64url.h"
#include "tests/node/jose/jose_vectors.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

std::string Input(const char* protected_header) {
  return std::string(protected_header) + "." + Base64UrlEncode(std::string(vectors::kPayload));
}

std::vector<uint8_t> Bytes(const char* text) {
  auto bytes = Base64UrlDecode(text);
  REQUIRE(bytes);
  return *bytes;
}

Jwk Key(const json& text) {
  auto key = ParseJwk(text);
  REQUIRE(key);
  return *key;
}

Jwk EcKey() { return Key(json::parse(vectors::kEs256Jwk)); }
Jwk RsaKey() {
  return Key({{"kty", "RSA"}, {"kid", vectors::kRs256Kid}, {"e", "AQAB"}, {"n", vectors::kRs256N}});
}

TEST_CASE("an ES256 signature made by jose verifies, and a changed one does not", "[unit]") {
  const std::string input = Input(vectors::kEs256Protected);
  std::vector<uint8_t> signature = Bytes(vectors::kEs256Signature);
  CHECK(VerifyEs256(EcKey(), input, signature));
  auto other_input = VerifyEs256(EcKey(), input + "x", signature);
  REQUIRE_FALSE(other_input);
  CHECK(other_input.error().code == transport::ErrorCode::kCrypto);
  signature[10] ^= 1;
  CHECK_FALSE(VerifyEs256(EcKey(), input, signature));
}

TEST_CASE("an RS256 signature made by jose verifies, and a changed one does not", "[unit]") {
  const std::string input = Input(vectors::kRs256Protected);
  std::vector<uint8_t> signature = Bytes(vectors::kRs256Signature);
  CHECK(VerifyRs256(RsaKey(), input, signature));
  auto other_input = VerifyRs256(RsaKey(), input + "x", signature);
  REQUIRE_FALSE(other_input);
  CHECK(other_input.error().message == "the RS256 signature does not verify");
  signature[100] ^= 1;
  CHECK_FALSE(VerifyRs256(RsaKey(), input, signature));
}

TEST_CASE("a point off P-256, a wrong key type or a wrong length is refused, named", "[unit]") {
  const std::string input = Input(vectors::kEs256Protected);
  const std::vector<uint8_t> signature = Bytes(vectors::kEs256Signature);
  Jwk off_curve = EcKey();
  off_curve.y[31] ^= 1;
  auto off = VerifyEs256(off_curve, input, signature);
  REQUIRE_FALSE(off);
  CHECK(off.error().message == "the EC key's x and y are not a point of P-256");
  auto wrong_type = VerifyEs256(RsaKey(), input, signature);
  REQUIRE_FALSE(wrong_type);
  CHECK(wrong_type.error().message.find("needs an EC P-256 key") != std::string::npos);
  auto short_signature = VerifyEs256(EcKey(), input, std::vector<uint8_t>(63));
  REQUIRE_FALSE(short_signature);
  CHECK(short_signature.error().message.find("64 bytes") != std::string::npos);
  auto rsa_length = VerifyRs256(RsaKey(), input, signature);
  REQUIRE_FALSE(rsa_length);
  CHECK(rsa_length.error().message.find("as long as the modulus (256 bytes)") != std::string::npos);
  CHECK_FALSE(VerifyRs256(EcKey(), input, std::vector<uint8_t>(256)));
}

}  // namespace
}  // namespace skillnode::node::jose
