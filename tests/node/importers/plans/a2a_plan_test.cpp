#include "node/importers/plans/a2a_plan.h"

#include <catch2/catch.hpp>

#include "discovery/skillmd/front_matter.h"
#include "tests/node/importers/plans/registry_checks.h"

namespace skillnode::node::importers::plans {
namespace {

using nlohmann::json;
using testing::RequireRegistrable;

json Skill(const std::string& id, const std::string& name, json tags) {
  return {{"id", id}, {"name", name}, {"description", "Does " + name + "."}, {"tags", tags}};
}

json Card(json skills) {
  return {{"name", "Route Planner"},
          {"description", "Plans delivery routes."},
          {"version", "2.1.0"},
          {"supportedInterfaces",
           {{{"url", "https://agent.example.org/a2a"},
             {"protocolBinding", "JSONRPC"},
             {"protocolVersion", "1.0"}}}},
          {"capabilities", json::object()},
          {"defaultInputModes", {"text/plain"}},
          {"defaultOutputModes", {"application/json"}},
          {"skills", std::move(skills)}};
}

A2aProvenance Provenance(std::string host = "agent.example.org") {
  A2aProvenance provenance;
  provenance.card_url = "https://" + host + "/.well-known/agent-card.json";
  provenance.host = std::move(host);
  provenance.signature = kademlia::store::OriginSignature::kVerified;
  return provenance;
}

// The card's plans, read from `card`'s bytes as an import reads them.
std::vector<transport::Result<PlannedSkill>> Plan(const json& card,
                                                  const A2aProvenance& provenance = Provenance()) {
  const std::string bytes = card.dump();
  auto document = documents::ReadA2aCard(bytes);
  INFO((document ? std::string("read") : document.error().message));
  REQUIRE(document);
  return PlanA2aCard(*document, bytes, provenance);
}

TEST_CASE("a card's three skills become three plans under one agent", "[unit]") {
  json track = Skill("Track_Shipment", "Track, trace | report", json::array());
  track["examples"] = {"Where is parcel 42?", "Where is parcel 42?", "Track 7"};
  const json card = Card({Skill("plan-route", "Plan route", {"Routing", "Logistics", "routing"}),
                          track, Skill("quote", "Quote", {"pricing"})});
  const std::string bytes = card.dump();
  auto plans = Plan(card);
  REQUIRE(plans.size() == 3);
  for (const auto& plan : plans) {
    REQUIRE(plan);
    RequireRegistrable(*plan);
    const auto& f = plan->fields;
    CHECK(f.agent_id == "route-planner@agent.example.org");
    CHECK(f.version == "2.1.0");
    CHECK(f.skill_type == kademlia::store::kA2aAgentSkillType);
    CHECK(f.endpoint == "https://agent.example.org/a2a");
    REQUIRE(f.origin);
    CHECK(f.origin->format == kademlia::store::OriginFormat::kA2a);
    CHECK(f.origin->source_url == "https://agent.example.org/.well-known/agent-card.json");
    CHECK(f.origin->document_sha256 == discovery::skillmd::Sha256Of(bytes));
    CHECK(f.origin->document_size == bytes.size());
    CHECK(f.origin->signature == kademlia::store::OriginSignature::kVerified);
    CHECK(f.origin->publisher_domain.empty());  // the import proves it later
    CHECK(f.origin->publisher_domain_state == kademlia::store::OriginDomainState::kNone);
  }
  CHECK(plans[0]->entry == "skills[0] (plan-route)");
  CHECK(plans[0]->fields.skill_id == "plan-route");
  CHECK(plans[0]->fields.capabilities == std::vector<std::string>{"routing", "logistics"});
  CHECK(plans[0]->fields.descriptor->tags ==
        std::vector<std::string>{"Routing", "Logistics", "routing"});
  CHECK(plans[0]->fields.descriptor->description == "Does Plan route.");
  // No tags: the skillId is the capability; separators leave the name.
  CHECK(plans[1]->fields.skill_id == "track_shipment");
  CHECK(plans[1]->fields.capabilities == std::vector<std::string>{"track_shipment"});
  CHECK(plans[1]->fields.descriptor->name == "Track trace report");
  CHECK(plans[1]->fields.descriptor->examples ==
        std::vector<std::string>{"Where is parcel 42?", "Track 7"});
  CHECK(plans[1]->fields.descriptor->examples_json.empty());
  CHECK(plans[2]->fields.capabilities == std::vector<std::string>{"pricing"});
}

TEST_CASE("the card's bytes are held once, shared by the plans of all its skills", "[unit]") {
  const json card =
      Card({Skill("a", "A", {"x"}), Skill("b", "B", {"x"}), Skill("c", "C", json::array())});
  const std::string bytes = card.dump();
  auto plans = Plan(card);
  REQUIRE(plans.size() == 3);
  for (const auto& plan : plans) REQUIRE(plan->bytes.size() == 1);
  const auto& shared = plans[0]->bytes[0].second;
  CHECK(*shared == bytes);
  CHECK(plans[0]->bytes[0].first == discovery::skillmd::Sha256Of(bytes));
  CHECK(plans[1]->bytes[0].second.get() == shared.get());
  CHECK(plans[2]->bytes[0].second.get() == shared.get());
  CHECK(shared.use_count() == 3);
}

TEST_CASE("a skill whose id another skill of the card has is refused, the rest planned", "[unit]") {
  auto plans =
      Plan(Card({Skill("plan-route", "Plan route", {"routing"}),
                 Skill("Plan Route", "Plan route again", {"routing"}),
                 Skill("@@@", "Nothing usable", {"x"}), Skill("quote", "Quote", json::array())}));
  REQUIRE(plans.size() == 4);
  REQUIRE(plans[0]);
  RequireRegistrable(*plans[0]);
  REQUIRE_FALSE(plans[1]);
  CHECK(plans[1].error().message ==
        "skills[1] (Plan Route): another skill of the card has the skillId plan-route");
  REQUIRE_FALSE(plans[2]);
  CHECK(plans[2].error().message.starts_with("skills[2] (@@@): the id has no letters"));
  REQUIRE(plans[3]);
  RequireRegistrable(*plans[3]);
}

TEST_CASE("a card skill's description over 1,024 characters is cut with \"...\"", "[unit]") {
  json skill = Skill("long", "Long", {"x"});
  std::string description;
  for (int i = 0; i < 1100; ++i) description += "\xC3\xA9";  // é, two bytes
  skill["description"] = description;
  auto plans = Plan(Card({skill}));
  REQUIRE(plans.size() == 1);
  REQUIRE(plans[0]);
  RequireRegistrable(*plans[0]);
  const std::string& cut = plans[0]->fields.descriptor->description;
  CHECK(cut.ends_with("..."));
  CHECK(discovery::skillmd::CharacterCount(cut) == kademlia::store::kDescriptionLengthMax);
  CHECK(discovery::skillmd::FirstNonUtf8Line(cut) == 0);
  CHECK(cut == description.substr(0, 2 * 1021) + "...");
}

TEST_CASE("examples stay text, at most eight, within 1,024 bytes, the record in size", "[unit]") {
  json skill = Skill("many", "Many", {"x"});
  std::string description;
  for (int i = 0; i < 1024; ++i) description += "\xF0\x9F\x9A\x9A";  // 4,096 bytes
  skill["description"] = description;
  skill["examples"] = json::array();
  for (int i = 0; i < 10; ++i) skill["examples"].push_back(std::string(1024, 'a' + i));
  const std::string bytes = Card({skill}).dump();
  auto card = documents::ReadA2aCard(bytes);
  REQUIRE(card);
  // The reader takes examples of up to 1,024 bytes; a longer one (a document built otherwise)
  // is cut, at a character boundary.
  card->skills[0].examples[1] = std::string(1021, 'b') + "\xC3\xA9" + std::string(100, 'b');
  auto plans = PlanA2aCard(*card, bytes, Provenance());
  REQUIRE(plans.size() == 1);
  REQUIRE(plans[0]);
  RequireRegistrable(*plans[0]);
  const auto& examples = plans[0]->fields.descriptor->examples;
  // Eight would take the record past kRecordEncodedSizeMax with this description.
  REQUIRE(examples.size() >= 2);
  CHECK(examples.size() < kademlia::store::kExamplesMax);
  CHECK(examples[0] == std::string(1024, 'a'));
  CHECK(examples[1] == std::string(1021, 'b') + "...");
  CHECK(kademlia::store::EncodeRecord(plans[0]->fields).size() <=
        kademlia::store::kRecordEncodedSizeMax);
  // Without the long description more of them fit (eight of 1,024 bytes never do).
  const size_t with_long_description = examples.size();
  card->skills[0].description = "Short.";
  plans = PlanA2aCard(*card, bytes, Provenance());
  REQUIRE(plans[0]);
  CHECK(plans[0]->fields.descriptor->examples.size() > with_long_description);
  RequireRegistrable(*plans[0]);
}

TEST_CASE("a long host leaves the agentId within kIdLengthMax", "[unit]") {
  const std::string host = std::string(120, 'h') + ".example.org";
  auto plans = Plan(Card({Skill("a", "A", json::array())}), Provenance(host));
  REQUIRE(plans.size() == 1);
  REQUIRE(plans[0]);
  RequireRegistrable(*plans[0]);
  const std::string& agent_id = plans[0]->fields.agent_id;
  CHECK(agent_id.size() <= kademlia::store::kIdLengthMax);
  CHECK(agent_id.starts_with("route-planner@hhhh"));
}

TEST_CASE("a card read from no host is the agent of its name alone", "[unit]") {
  A2aProvenance provenance = Provenance();
  provenance.host.clear();
  provenance.card_url = "/srv/cards/agent-card.json";
  auto plans = Plan(Card({Skill("a", "A", json::array())}), provenance);
  REQUIRE(plans.size() == 1);
  REQUIRE(plans[0]);
  CHECK(plans[0]->fields.agent_id == "route-planner");
  RequireRegistrable(*plans[0]);
}

TEST_CASE("a card whose name has no usable letters is one error for the whole card", "[unit]") {
  json card = Card({Skill("a", "A", json::array()), Skill("b", "B", json::array())});
  card["name"] = "路线规划";
  auto plans = Plan(card);
  REQUIRE(plans.size() == 1);
  REQUIRE_FALSE(plans[0]);
  CHECK(plans[0].error().message ==
        "card \"路线规划\": its name has no letters or digits to make an agentId of; none of "
        "its skills is imported");
}

TEST_CASE("a card's version is mapped to semver, or the card is refused naming it", "[unit]") {
  json card = Card({Skill("a", "A", json::array())});
  card["version"] = "v2";
  auto plans = Plan(card);
  REQUIRE(plans[0]);
  CHECK(plans[0]->fields.version == "2.0.0");
  RequireRegistrable(*plans[0]);
  card["version"] = "spring release";
  plans = Plan(card);
  REQUIRE(plans.size() == 1);
  REQUIRE_FALSE(plans[0]);
  CHECK(plans[0].error().message.starts_with(
      "card \"Route Planner\": version 'spring release': is not a semantic version"));
}

TEST_CASE("a card the registry would refuse as a whole gives each skill that reason", "[unit]") {
  A2aProvenance provenance = Provenance();
  provenance.card_url = "https://agent.example.org/a card.json";
  auto plans = Plan(Card({Skill("a", "A", json::array())}), provenance);
  REQUIRE(plans.size() == 1);
  REQUIRE_FALSE(plans[0]);
  CHECK(plans[0].error().message.starts_with("skills[0] (a): the registry would refuse it: "));
  CHECK(plans[0].error().message.find("origin.sourceUrl") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::importers::plans
