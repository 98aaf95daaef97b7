// Checking card signatures (node/formats/a2a/a2a_card_verifier.h): any change to a signed card is
// caught; a card the JS SDK signed (its canonicalization drops empty values) verifies; a card
// without signatures, or whose signatures are all bad, is refused with each reason.
#include "node/formats/a2a/a2a_card_verifier.h"

#include <catch2/catch.hpp>
#include <string>

#include "node/formats/a2a/a2a_card_signer.h"
#include "node/jose/jws_signer.h"
#include "support/records.h"

namespace skillnode::node::formats::a2a {
namespace {

using nlohmann::json;

const json kCard = {{"name", "agent-x"},
                    {"description", "An agent"},
                    {"version", "1.0.0"},
                    {"capabilities", {{"streaming", false}}}};
const std::string kJku = "http://127.0.0.1:7070/.well-known/jwks.json";

std::string ErrorOf(const json& card, const jose::JwkSet& keys) {
  auto verified = VerifyA2aCard(card, keys);
  REQUIRE_FALSE(verified);
  return verified.error().message;
}

TEST_CASE("any change to a signed card makes its signature fail", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("node");
  const A2aCardSigner signer(identity);
  const json card = *signer.Sign(kCard, kJku);
  REQUIRE(VerifyA2aCard(card, signer.jwks()));
  json renamed = card;
  renamed["name"] = "agent-y";
  CHECK(ErrorOf(renamed, signer.jwks()) ==
        "no signature of the card verifies: signatures[0]: kid " + signer.kid() +
            ": the EdDSA signature does not verify");
  json added = card;
  added["iconUrl"] = "https://example.org/icon.png";
  CHECK_FALSE(VerifyA2aCard(added, signer.jwks()));
  json flipped = card;
  flipped["capabilities"]["streaming"] = true;
  CHECK_FALSE(VerifyA2aCard(flipped, signer.jwks()));
}

TEST_CASE("a key the card's kid does not name, or another node's key, verifies nothing", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("node");
  const kademlia::Identity other = testing::Publisher("other");
  const A2aCardSigner signer(identity);
  const A2aCardSigner other_signer(other);
  const json card = *signer.Sign(kCard, kJku);
  CHECK(ErrorOf(card, other_signer.jwks()).find("no key of the set has kid " + signer.kid()) !=
        std::string::npos);
  jose::Jwk impostor = other_signer.jwks().keys()[0];
  impostor.kid = signer.kid();  // the right name on the wrong key
  CHECK(ErrorOf(card, jose::JwkSet({impostor})).find("does not verify") != std::string::npos);
}

TEST_CASE("a card signed over its empty values dropped, as the JS SDK signs, verifies", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("node");
  const jose::JwsSigner jws_signer(identity);
  json card = kCard;
  card["skills"] = json::array();
  card["documentationUrl"] = "";
  const json header = {{"alg", "EdDSA"}, {"kid", jws_signer.kid()}, {"typ", "JOSE"}};
  auto jws = jws_signer.SignDetached(header, *A2aCardPayload(WithoutEmptyValues(card)));
  REQUIRE(jws);
  card["signatures"] = json::array({jose::FlattenedJwsJson(*jws)});
  auto verified = VerifyA2aCard(card, jose::JwkSet({jws_signer.public_jwk()}));
  REQUIRE(verified);
  CHECK(verified->empty_values_dropped);
  CHECK_FALSE(verified->jku);
}

TEST_CASE("empty values are dropped recursively, false and zero kept", "[unit]") {
  const json card = {{"a", ""},
                     {"b", json::array({"", json::object(), 0})},
                     {"c", {{"d", json::array()}}},
                     {"e", false},
                     {"f", nullptr}};
  CHECK(WithoutEmptyValues(card) == json{{"b", {0}}, {"e", false}});
}

TEST_CASE("the first good signature counts; each bad one is named", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("node");
  const A2aCardSigner signer(identity);
  json card = *signer.Sign(kCard, kJku);
  const json good = card["signatures"][0];
  card["signatures"] = json::array({{{"protected", "e30"}}, good});
  auto verified = VerifyA2aCard(card, signer.jwks());
  REQUIRE(verified);
  CHECK(verified->index == 1);
  card["signatures"] = json::array({{{"protected", "e30"}}, "text"});
  CHECK(ErrorOf(card, signer.jwks()) ==
        "no signature of the card verifies: signatures[0]: JWS member signature: missing; "
        "signatures[1]: a JWS must be a JSON object, not a string");
}

TEST_CASE("a card without signatures is refused as such", "[unit]") {
  const A2aCardSigner signer(testing::Publisher("node"));
  auto none = VerifyA2aCard(kCard, signer.jwks());
  REQUIRE_FALSE(none);
  CHECK(none.error().code == transport::ErrorCode::kNotFound);
  json empty = kCard;
  empty["signatures"] = json::array();
  CHECK(ErrorOf(empty, signer.jwks()) == "the card has no signatures");
  empty["signatures"] = "x";
  CHECK(ErrorOf(empty, signer.jwks()) == "the card's signatures is not an array");
}

}  // namespace
}  // namespace skillnode::node::formats::a2a
