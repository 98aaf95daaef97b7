// Protected headers (node/jose/jws_header.h): the three algorithms accepted; "none" and HMAC
// refused; a header lacking alg, kid or typ, with crit or b64, or not JSON refused naming why.
#include "node/jose/jws_header.h"

#include <catch2/catch.hpp>
#include <string>

#include "node/jose/base64url.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

std::string Encoded(const json& header) { return Base64UrlEncode(header.dump()); }

std::string ErrorOf(const json& header) {
  auto parsed = ParseProtectedHeader(Encoded(header));
  REQUIRE_FALSE(parsed);
  return parsed.error().message;
}

TEST_CASE("a header with alg, kid, typ and jku reads with every member kept", "[unit]") {
  const json header = {{"alg", "ES256"},
                       {"kid", "k1"},
                       {"typ", "JOSE"},
                       {"jku", "https://example.org/.well-known/jwks.json"},
                       {"x-extra", 1}};
  auto parsed = ParseProtectedHeader(Encoded(header));
  REQUIRE(parsed);
  CHECK(parsed->alg == Algorithm::kEs256);
  CHECK(parsed->kid == "k1");
  CHECK(parsed->typ == "JOSE");
  CHECK(parsed->jku == "https://example.org/.well-known/jwks.json");
  CHECK(parsed->json == header);
}

TEST_CASE("EdDSA, ES256 and RS256 are the algorithms; none and HMAC are refused", "[unit]") {
  CHECK(*ParseAlgorithm("EdDSA") == Algorithm::kEdDsa);
  CHECK(*ParseAlgorithm("ES256") == Algorithm::kEs256);
  CHECK(*ParseAlgorithm("RS256") == Algorithm::kRs256);
  for (const char* name : {"none", "None", "HS256", "HS512"}) {
    INFO(name);
    auto alg = ParseAlgorithm(name);
    REQUIRE_FALSE(alg);
    CHECK(alg.error().code == transport::ErrorCode::kRefused);
  }
  auto es512 = ParseAlgorithm("ES512");
  REQUIRE_FALSE(es512);
  CHECK(es512.error().code == transport::ErrorCode::kUnsupported);
  const json none = {{"alg", "none"}, {"kid", "k"}, {"typ", "JOSE"}};
  CHECK(ErrorOf(none).find("alg 'none' is refused") != std::string::npos);
  const json hmac = {{"alg", "HS256"}, {"kid", "k"}, {"typ", "JOSE"}};
  CHECK(ErrorOf(hmac).find("HMAC") != std::string::npos);
}

TEST_CASE("a header lacking alg, kid or typ is refused naming the member", "[unit]") {
  const json full = {{"alg", "EdDSA"}, {"kid", "k"}, {"typ", "JOSE"}};
  for (const char* member : {"alg", "kid", "typ"}) {
    json header = full;
    header.erase(member);
    CHECK(ErrorOf(header) == std::string("JWS protected header: lacks ") + member);
    header[member] = "";
    CHECK(ErrorOf(header).find(std::string(member) + " must be a non-empty string") !=
          std::string::npos);
  }
}

TEST_CASE("crit, b64 and headers that are not JSON objects are refused", "[unit]") {
  json crit = {{"alg", "EdDSA"}, {"kid", "k"}, {"typ", "JOSE"}, {"crit", {"exp"}}};
  CHECK(ErrorOf(crit).find("crit") != std::string::npos);
  json b64 = {{"alg", "EdDSA"}, {"kid", "k"}, {"typ", "JOSE"}, {"b64", false}};
  CHECK(ErrorOf(b64).find("b64") != std::string::npos);
  CHECK(ErrorOf(json::array({1})).find("not a JSON object") != std::string::npos);
  auto not_json = ParseProtectedHeader(Base64UrlEncode("{alg"));
  REQUIRE_FALSE(not_json);
  CHECK(not_json.error().message.find("not a JSON object") != std::string::npos);
  auto not_b64 = ParseProtectedHeader("e30=");
  REQUIRE_FALSE(not_b64);
  CHECK(not_b64.error().message.find("'='") != std::string::npos);
  CHECK_FALSE(ParseProtectedHeader(""));
  CHECK_FALSE(ParseProtectedHeader(std::string(kProtectedHeaderTextMax + 1, 'e')));
}

}  // namespace
}  // namespace skillnode::node::jose
