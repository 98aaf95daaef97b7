// Signing with a node identity (node/jose/jws_signer.h): the key's JWK and thumbprint kid (RFC
// 8037's example key), deterministic detached EdDSA signatures that verify, and protected
// headers the signer refuses.
#include "node/jose/jws_signer.h"

#include <catch2/catch.hpp>
#include <string>

#include "node/jose/base64url.h"
#include "node/jose/jws_verifier.h"
#include "tests/node/jose/jose_vectors.h"

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

kademlia::Identity Rfc8037Identity() {
  auto seed = Base64UrlDecode(vectors::kRfc8037Seed);
  REQUIRE(seed);
  auto identity = kademlia::Identity::FromSeedBytes(*seed);
  REQUIRE(identity);
  return *identity;
}

TEST_CASE("the signer's key is the identity's Ed25519 key, its kid the RFC 7638 thumbprint",
          "[unit]") {
  const kademlia::Identity identity = Rfc8037Identity();
  const JwsSigner signer(identity);
  CHECK(Base64UrlEncode(signer.public_jwk().x) == vectors::kRfc8037X);
  CHECK(signer.kid() == vectors::kRfc8037Thumbprint);
  CHECK(signer.public_jwk().alg == "EdDSA");
}

TEST_CASE("a detached EdDSA signature verifies with the published key and is deterministic",
          "[unit]") {
  const kademlia::Identity identity = Rfc8037Identity();
  const JwsSigner signer(identity);
  const json header = {{"alg", "EdDSA"},
                       {"kid", signer.kid()},
                       {"typ", "JOSE"},
                       {"jku", "http://127.0.0.1:7070/.well-known/jwks.json"}};
  auto jws = signer.SignDetached(header, vectors::kPayload);
  REQUIRE(jws);
  CHECK_FALSE(jws->header);
  // The header is written canonically: members sorted, no white space.
  auto header_bytes = Base64UrlDecode(jws->protected_header);
  REQUIRE(header_bytes);
  CHECK(std::string(header_bytes->begin(), header_bytes->end()) ==
        "{\"alg\":\"EdDSA\",\"jku\":\"http://127.0.0.1:7070/.well-known/jwks.json\",\"kid\":\"" +
            signer.kid() + "\",\"typ\":\"JOSE\"}");
  auto again = signer.SignDetached(header, vectors::kPayload);
  REQUIRE(again);
  CHECK(again->signature == jws->signature);
  const JwkSet keys({signer.public_jwk()});
  auto verified = VerifyDetached(*jws, vectors::kPayload, keys);
  REQUIRE(verified);
  CHECK(verified->jku == "http://127.0.0.1:7070/.well-known/jwks.json");
  CHECK_FALSE(VerifyDetached(*jws, std::string(vectors::kPayload) + " ", keys));
}

TEST_CASE("the signer refuses a header that is not EdDSA or lacks kid or typ", "[unit]") {
  const kademlia::Identity identity = Rfc8037Identity();
  const JwsSigner signer(identity);
  auto es = signer.SignDetached({{"alg", "ES256"}, {"kid", "k"}, {"typ", "JOSE"}}, "x");
  REQUIRE_FALSE(es);
  CHECK(es.error().message.find("alg must be EdDSA") != std::string::npos);
  auto no_kid = signer.SignDetached({{"alg", "EdDSA"}, {"typ", "JOSE"}}, "x");
  REQUIRE_FALSE(no_kid);
  CHECK(no_kid.error().message == "JWS protected header: lacks kid");
  auto none = signer.SignDetached({{"alg", "none"}, {"kid", "k"}, {"typ", "JOSE"}}, "x");
  REQUIRE_FALSE(none);
  CHECK(none.error().code == transport::ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace skillnode::node::jose
