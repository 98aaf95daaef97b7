// Detached JWS verification (node/jose/jws_verifier.h) of signatures another implementation
// made (the npm package jose, jose_vectors.h), by key set and by single key, and every reason
// to refuse one: a changed payload, kid mismatch, unknown kid, a key's alg or use, a header
// member both protected and not, alg none.
#include "node/jose/jws_verifier.h"

#include <catch2/catch.hpp>
#include <string>

#include "node/jose/base64url.h"
#include "tests/node/jose/jose_vectors.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

FlattenedJws Jws(const char* protected_header, const char* signature) {
  FlattenedJws jws;
  jws.protected_header = protected_header;
  jws.signature = signature;
  return jws;
}

FlattenedJws Es256Jws() { return Jws(vectors::kEs256Protected, vectors::kEs256Signature); }

JwkSet Keys() {
  auto set = JwkSet::Parse(
      {{"keys",
        {json::parse(vectors::kEs256Jwk),
         {{"kty", "RSA"}, {"kid", vectors::kRs256Kid}, {"e", "AQAB"}, {"n", vectors::kRs256N}}}}});
  REQUIRE(set);
  return *set;
}

std::string ErrorOf(const transport::Result<ProtectedHeader>& result) {
  REQUIRE_FALSE(result);
  return result.error().message;
}

TEST_CASE("ES256 and RS256 signatures made by jose verify through a key set", "[unit]") {
  auto es = VerifyDetached(Es256Jws(), vectors::kPayload, Keys());
  REQUIRE(es);
  CHECK(es->alg == Algorithm::kEs256);
  CHECK(es->kid == "es256-key");
  CHECK(es->typ == "JOSE");
  auto rs = VerifyDetached(Jws(vectors::kRs256Protected, vectors::kRs256Signature),
                           vectors::kPayload, Keys());
  REQUIRE(rs);
  CHECK(rs->alg == Algorithm::kRs256);
}

TEST_CASE("a payload that changed by one byte does not verify", "[unit]") {
  std::string payload = vectors::kPayload;
  payload[3] = 'N';
  auto result = VerifyDetached(Es256Jws(), payload, Keys());
  CHECK(ErrorOf(result) == "kid es256-key: the ES256 signature does not verify");
  CHECK(result.error().code == transport::ErrorCode::kCrypto);
}

TEST_CASE("a key whose kid is not the header's is a kid mismatch", "[unit]") {
  const JwkSet keys = Keys();
  auto key = keys.Find("rs256-key");
  REQUIRE(key);
  CHECK(ErrorOf(VerifyDetached(Es256Jws(), vectors::kPayload, **key)) ==
        "kid mismatch: the JWS names es256-key, the key is rs256-key");
  Jwk unnamed = *keys.Find("es256-key").value();
  unnamed.kid.clear();  // a key without a kid is taken as the one meant
  CHECK(VerifyDetached(Es256Jws(), vectors::kPayload, unnamed));
}

TEST_CASE("a kid the key set lacks is not found", "[unit]") {
  const JwkSet keys = Keys();
  const JwkSet only_rsa({*keys.Find("rs256-key").value()});
  auto result = VerifyDetached(Es256Jws(), vectors::kPayload, only_rsa);
  CHECK(ErrorOf(result).find("no key of the set has kid es256-key") != std::string::npos);
  CHECK(result.error().code == transport::ErrorCode::kNotFound);
}

TEST_CASE("a key bound to another alg or to encryption is not used", "[unit]") {
  const JwkSet keys = Keys();
  Jwk key = *keys.Find("es256-key").value();
  key.alg = "ES384";
  CHECK(ErrorOf(VerifyDetached(Es256Jws(), vectors::kPayload, key)) ==
        "key es256-key is for alg ES384, the JWS uses ES256");
  key.alg.clear();
  key.use = "enc";
  CHECK(ErrorOf(VerifyDetached(Es256Jws(), vectors::kPayload, key)) ==
        "key es256-key is for use enc, not sig");
}

TEST_CASE("an unprotected header repeating a protected member is refused", "[unit]") {
  FlattenedJws jws = Es256Jws();
  jws.header = json{{"kid", "other"}};
  CHECK(ErrorOf(VerifyDetached(jws, vectors::kPayload, Keys())) ==
        "JWS header member kid is both protected and unprotected");
  jws.header = json{{"note", "unsigned"}};
  CHECK(VerifyDetached(jws, vectors::kPayload, Keys()));
}

TEST_CASE("alg none, a header without typ and a bad signature text are refused", "[unit]") {
  const std::string none =
      Base64UrlEncode(std::string(R"({"alg":"none","kid":"es256-key","typ":"JOSE"})"));
  FlattenedJws unsigned_jws = Es256Jws();
  unsigned_jws.protected_header = none;
  auto result = VerifyDetached(unsigned_jws, vectors::kPayload, Keys());
  CHECK(ErrorOf(result).find("alg 'none' is refused") != std::string::npos);
  CHECK(result.error().code == transport::ErrorCode::kRefused);
  FlattenedJws no_typ = Es256Jws();
  no_typ.protected_header = Base64UrlEncode(std::string(R"({"alg":"ES256","kid":"es256-key"})"));
  CHECK(ErrorOf(VerifyDetached(no_typ, vectors::kPayload, Keys())) ==
        "JWS protected header: lacks typ");
  FlattenedJws bad_text = Es256Jws();
  bad_text.signature += "=";
  CHECK(ErrorOf(VerifyDetached(bad_text, vectors::kPayload, Keys()))
            .starts_with("JWS signature: base64url"));
}

}  // namespace
}  // namespace skillnode::node::jose
