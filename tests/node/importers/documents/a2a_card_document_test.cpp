#include "node/importers/documents/a2a_card_document.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

json V1Card() {
  return json::parse(R"({
    "name": "Route Planner", "description": "Plans delivery routes.", "version": "2.1.0",
    "supportedInterfaces": [
      {"url": "https://agent.example.org/a2a", "protocolBinding": "JSONRPC",
       "protocolVersion": "1.0"}],
    "provider": {"organization": "Example", "url": "https://example.org"},
    "capabilities": {"streaming": true},
    "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
    "skills": [{"id": "plan-route", "name": "Plan route", "description": "Multi-stop routes.",
                "tags": ["routing"], "examples": ["Route A to B"],
                "inputModes": ["text/plain"]}],
    "signatures": [{"protected": "eyJhbGciOiJFZERTQSJ9", "signature": "c2ln",
                    "header": {"note": "x"}}],
    "someFutureField": 1
  })");
}

std::string Without(json card, const std::string& pointer) {
  card.erase(card.find(json::json_pointer(pointer).back()));
  return card.dump();
}

TEST_CASE("a v1.0 card is read with its interfaces, skills and signatures", "[unit]") {
  auto card = ReadA2aCard(V1Card().dump());
  REQUIRE(card);
  CHECK(card->shape == A2aCardShape::kV1);
  CHECK(card->name == "Route Planner");
  CHECK(card->version == "2.1.0");
  CHECK(card->provider_organization == "Example");
  REQUIRE(card->interfaces.size() == 1);
  CHECK(card->interfaces[0].protocol_binding == "JSONRPC");
  CHECK(card->interfaces[0].protocol_version == "1.0");
  REQUIRE(card->skills.size() == 1);
  CHECK(card->skills[0].id == "plan-route");
  CHECK(card->skills[0].tags == std::vector<std::string>{"routing"});
  CHECK(card->skills[0].examples == std::vector<std::string>{"Route A to B"});
  CHECK(card->skills[0].input_modes == std::vector<std::string>{"text/plain"});
  REQUIRE(card->signatures.size() == 1);
  CHECK(card->signatures[0].header["note"] == "x");
  CHECK(card->json["someFutureField"] == 1);  // unknown fields are kept, not refused
}

TEST_CASE("a v0.3 card's url, preferred transport and extra interfaces are read as 0.3", "[unit]") {
  json card = V1Card();
  card.erase("supportedInterfaces");
  card["url"] = "https://agent.example.org/a2a";
  card["preferredTransport"] = "JSONRPC";
  card["additionalInterfaces"] =
      json::array({{{"url", "https://agent.example.org/a2a"}, {"transport", "JSONRPC"}},
                   {{"url", "https://agent.example.org/rest"}, {"transport", "HTTP+JSON"}}});
  auto read = ReadA2aCard(card.dump());
  REQUIRE(read);
  CHECK(read->shape == A2aCardShape::kV03);
  REQUIRE(read->interfaces.size() == 2);  // the preferred one is not listed twice
  CHECK(read->interfaces[1].protocol_binding == "HTTP+JSON");
  CHECK(read->interfaces[1].protocol_version == "0.3");
}

TEST_CASE("a card missing a required field is refused, naming the field", "[unit]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/name", "name: required"},
      {"/description", "description: required"},
      {"/version", "version: required"},
      {"/supportedInterfaces", "supportedInterfaces: required"},
      {"/skills", "skills: required, an array"},
      {"/capabilities", "capabilities: required"},
      {"/defaultInputModes", "defaultInputModes: required"},
  };
  for (const auto& [pointer, message] : cases) {
    INFO(pointer);
    auto read = ReadA2aCard(Without(V1Card(), pointer));
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::StartsWith(message));
  }
}

TEST_CASE("a card's bad skill, interface or signature is named by its path", "[unit]") {
  json card = V1Card();
  card["skills"][0]["tags"] = json::array({"ok", 7});
  auto bad_tag = ReadA2aCard(card.dump());
  REQUIRE_FALSE(bad_tag);
  CHECK(bad_tag.error().message == "skills[0].tags[1]: not a string");

  card = V1Card();
  card["skills"][0].erase("tags");
  auto no_tags = ReadA2aCard(card.dump());
  REQUIRE_FALSE(no_tags);
  CHECK(no_tags.error().message == "skills[0].tags: required, an array");

  card = V1Card();
  card["supportedInterfaces"][0]["protocolVersion"] = "";
  auto empty_version = ReadA2aCard(card.dump());
  REQUIRE_FALSE(empty_version);
  CHECK(empty_version.error().message ==
        "supportedInterfaces[0].protocolVersion: required, a non-empty string");

  card = V1Card();
  card["signatures"][0]["signature"] = "not+base64/url=";
  auto bad_signature = ReadA2aCard(card.dump());
  REQUIRE_FALSE(bad_signature);
  CHECK(bad_signature.error().message == "signatures[0].signature: not base64url");
}

TEST_CASE("a card that is not JSON, not an object, too deep or too big is refused", "[unit]") {
  auto not_json = ReadA2aCard("{\"name\": ");
  REQUIRE_FALSE(not_json);
  CHECK(not_json.error().message == "the agent card is not valid JSON");
  auto array = ReadA2aCard("[1, 2]");
  REQUIRE_FALSE(array);
  CHECK(array.error().message == "the document: not an object");
  json deep = V1Card();
  json nested = json::object();
  for (int i = 0; i < 40; ++i) nested = json{{"x", nested}};
  deep["capabilities"] = nested;
  auto too_deep = ReadA2aCard(deep.dump());
  REQUIRE_FALSE(too_deep);
  CHECK_THAT(too_deep.error().message, Catch::Contains("deeper than 32 levels"));
  json many = V1Card();
  many["skills"] = json::array();
  for (size_t i = 0; i <= kA2aCardSkillsMax; ++i) many["skills"].push_back(V1Card()["skills"][0]);
  auto too_many = ReadA2aCard(many.dump());
  REQUIRE_FALSE(too_many);
  CHECK(too_many.error().message == "skills: more than 256 items");
}

}  // namespace
}  // namespace skillnode::node::importers::documents
