// Signing cards (node/formats/a2a/a2a_card_signer.h): the payload is canonical JSON without
// `signatures`, the protected header names the node key by thumbprint with typ and jku, the
// signature verifies with the published JWKS and is the same for the same card.
#include "node/formats/a2a/a2a_card_signer.h"

#include <catch2/catch.hpp>
#include <string>

#include "node/formats/a2a/a2a_card_verifier.h"
#include "node/jose/base64url.h"
#include "node/jose/jwk.h"
#include "support/records.h"

namespace skillnode::node::formats::a2a {
namespace {

using nlohmann::json;

const json kCard = {
    {"name", "agent-x"},
    {"description", "An agent"},
    {"version", "1.0.0"},
    {"skills", {{{"id", "s"}, {"name", "S"}, {"description", "d"}, {"tags", {"t"}}}}}};
const std::string kJku = "http://127.0.0.1:7070/.well-known/jwks.json";

json HeaderOf(const json& card) {
  auto bytes = jose::Base64UrlDecode(card["signatures"][0]["protected"].get<std::string>());
  REQUIRE(bytes);
  return json::parse(bytes->begin(), bytes->end());
}

TEST_CASE("the payload is the canonical card without its signatures", "[unit]") {
  json signed_card = kCard;
  signed_card["signatures"] = json::array({{{"protected", "x"}, {"signature", "y"}}});
  auto payload = A2aCardPayload(signed_card);
  REQUIRE(payload);
  CHECK(*payload ==
        R"({"description":"An agent","name":"agent-x","skills":[{"description":"d","id":"s",)"
        R"("name":"S","tags":["t"]}],"version":"1.0.0"})");
  CHECK_FALSE(A2aCardPayload(json::array()));
}

TEST_CASE("a signed card names the node key and verifies with the node's JWKS", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("a2a-node");
  const A2aCardSigner signer(identity);
  auto card = signer.Sign(kCard, kJku);
  REQUIRE(card);
  REQUIRE((*card)["signatures"].size() == 1);
  CHECK_FALSE((*card)["signatures"][0].contains("header"));
  CHECK(HeaderOf(*card) ==
        json{{"alg", "EdDSA"}, {"kid", signer.kid()}, {"typ", "JOSE"}, {"jku", kJku}});
  CHECK(signer.kid() == jose::JwkThumbprint(jose::Ed25519Jwk(identity.public_key(), "")));
  const json jwks = signer.jwks().Json();
  REQUIRE(jwks["keys"].size() == 1);
  CHECK(jwks["keys"][0]["kid"] == signer.kid());
  CHECK(jwks["keys"][0]["kty"] == "OKP");
  CHECK(jwks["keys"][0]["crv"] == "Ed25519");
  CHECK(jwks["keys"][0]["x"] == jose::Base64UrlEncode(identity.public_key()));
  auto verified = VerifyA2aCard(*card, signer.jwks());
  REQUIRE(verified);
  CHECK(verified->kid == signer.kid());
  CHECK(verified->alg == "EdDSA");
  CHECK(verified->jku == kJku);
  CHECK_FALSE(verified->empty_values_dropped);
}

TEST_CASE("the same card signs to the same bytes, another card or jku to others", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("a2a-node");
  const A2aCardSigner signer(identity);
  auto first = signer.Sign(kCard, kJku);
  auto again = signer.Sign(*first, kJku);  // signing again replaces the signature
  REQUIRE(first);
  REQUIRE(again);
  CHECK(*first == *again);
  json changed = kCard;
  changed["version"] = "1.0.1";
  CHECK(signer.Sign(changed, kJku)->at("signatures") != first->at("signatures"));
  CHECK(signer.Sign(kCard, "http://other:1/.well-known/jwks.json")->at("signatures") !=
        first->at("signatures"));
}

TEST_CASE("a card with no canonical form is not signed", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("a2a-node");
  const A2aCardSigner signer(identity);
  json bad = kCard;
  bad["name"] = std::string("\xC0\xAF");
  auto refused = signer.Sign(bad, kJku);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("not UTF-8") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::formats::a2a
