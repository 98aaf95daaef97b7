// CardKeys: where a signed card's key set is, and the card's plans once a signature verifies.
#include "node/importers/card_keys.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "node/formats/a2a/a2a_card_signer.h"
#include "support/records.h"

namespace skillnode::node::importers {
namespace {

using nlohmann::json;

const std::string kCardUrl = "https://agent.example.org/.well-known/agent-card.json";

json Card() {
  return {{"name", "Route Planner"},
          {"description", "Plans routes"},
          {"version", "1.2.0"},
          {"supportedInterfaces",
           {{{"url", "https://agent.example.org/a2a"},
             {"protocolBinding", "JSONRPC"},
             {"protocolVersion", "1.0"}}}},
          {"capabilities", {{"streaming", false}}},
          {"defaultInputModes", {"text/plain"}},
          {"defaultOutputModes", {"application/json"}},
          {"skills",
           {{{"id", "plan-route"},
             {"name", "Plan a route"},
             {"description", "Plans a route by road."},
             {"tags", {"routing"}}}}}};
}

documents::A2aCardDocument Read(const std::string& bytes) {
  auto card = documents::ReadA2aCard(bytes);
  REQUIRE(card);
  return *card;
}

TEST_CASE("a card signed with a jku is planned only with the key set that verifies it", "[unit]") {
  const kademlia::Identity identity = testing::Publisher("card");  // the signer keeps a reference
  const formats::a2a::A2aCardSigner signer(identity);
  const std::string bytes = signer.Sign(Card(), "/keys.json")->dump();
  const documents::A2aCardDocument card = Read(bytes);
  auto keys_url = CardKeysUrl(card, kCardUrl);
  REQUIRE(keys_url);
  REQUIRE(keys_url->has_value());
  CHECK(**keys_url == "https://agent.example.org/keys.json");

  auto planned = PlanSignedCard(card, bytes, kCardUrl, signer.jwks().Json().dump(), **keys_url);
  REQUIRE(planned);
  REQUIRE(planned->size() == 1);
  REQUIRE((*planned)[0]);
  const plans::PlannedSkill& plan = *(*planned)[0];
  CHECK(plan.fields.skill_id == "plan-route");
  REQUIRE(plan.fields.origin.has_value());
  CHECK(plan.fields.origin->signature == kademlia::store::OriginSignature::kVerified);
  CHECK(plan.document_signer.has_value());

  const kademlia::Identity other_identity = testing::Publisher("other");
  const formats::a2a::A2aCardSigner other(other_identity);
  auto refused = PlanSignedCard(card, bytes, kCardUrl, other.jwks().Json().dump(), **keys_url);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == transport::ErrorCode::kCrypto);
  CHECK_THAT(refused.error().message,
             Catch::Contains(kCardUrl + ": no signature of the card verifies with the keys at "
                                        "https://agent.example.org/keys.json"));
  CHECK_FALSE(PlanSignedCard(card, bytes, kCardUrl, "not json", **keys_url));
}

TEST_CASE("a card without signatures, or signed without a jku, is planned as unsigned", "[unit]") {
  const std::string bytes = Card().dump();
  const documents::A2aCardDocument card = Read(bytes);
  auto keys_url = CardKeysUrl(card, kCardUrl);
  REQUIRE(keys_url);
  CHECK_FALSE(keys_url->has_value());
  const CardPlans planned = PlanUnsignedCard(card, bytes, kCardUrl);
  REQUIRE(planned.size() == 1);
  REQUIRE(planned[0]);
  CHECK(planned[0]->fields.origin->signature == kademlia::store::OriginSignature::kUnsigned);
  CHECK_FALSE(planned[0]->document_signer.has_value());
}

}  // namespace
}  // namespace skillnode::node::importers
