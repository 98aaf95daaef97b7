// Flattened detached JWS objects (node/jose/flattened_jws.h): the A2A AgentCardSignature
// members read and written, the signing input rebuilt from a payload, malformed ones refused.
#include "node/jose/flattened_jws.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

TEST_CASE("a detached JWS reads protected, signature and header, and writes them back", "[unit]") {
  const json object = {{"protected", "eyJh"}, {"signature", "c2ln"}, {"header", {{"k", 1}}}};
  auto jws = ParseFlattenedJws(object);
  REQUIRE(jws);
  CHECK(jws->protected_header == "eyJh");
  CHECK(jws->signature == "c2ln");
  CHECK(jws->header == json{{"k", 1}});
  CHECK(FlattenedJwsJson(*jws) == object);
  jws->header.reset();
  CHECK(FlattenedJwsJson(*jws) == json{{"protected", "eyJh"}, {"signature", "c2ln"}});
}

TEST_CASE("the signing input is the protected header, a dot and the payload in base64url",
          "[unit]") {
  FlattenedJws jws;
  jws.protected_header = "eyJhbGciOiJFZERTQSJ9";
  CHECK(jws.SigningInput("Example of Ed25519 signing") ==
        "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc");  // RFC 8037 A.4
}

TEST_CASE("a JWS object lacking its members, or carrying its payload, is refused", "[unit]") {
  const auto error_of = [](const json& object) {
    auto jws = ParseFlattenedJws(object);
    REQUIRE_FALSE(jws);
    return jws.error().message;
  };
  CHECK(error_of({{"signature", "c2ln"}}) == "JWS member protected: missing");
  CHECK(error_of({{"protected", "eyJh"}}) == "JWS member signature: missing");
  CHECK(error_of({{"protected", ""}, {"signature", "c2ln"}}).find("non-empty string") !=
        std::string::npos);
  CHECK(error_of({{"protected", "eyJh"}, {"signature", "c2ln"}, {"header", "x"}}) ==
        "JWS member header: must be an object");
  CHECK(error_of({{"protected", "eyJh"}, {"signature", "c2ln"}, {"payload", "e30"}})
            .find("detached") != std::string::npos);
  CHECK(error_of(json::array()).find("JSON object") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::jose
