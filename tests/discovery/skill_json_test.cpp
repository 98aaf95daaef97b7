#include "discovery/skill_json.h"

#include <catch2/catch.hpp>

namespace skillnode::discovery {
namespace {

using nlohmann::json;

json Registration() {
  return {{"agentId", "agent-001"},
          {"skillId", "skill-org-feishu"},
          {"version", "0.7.0"},
          {"skillType", "enterprise-skill"},
          {"endpoint", "192.168.1.100:8080"},
          {"capabilities", {"org-data-read", "user-auth"}},
          {"scenes", {"auth"}}};
}

std::string FieldOfError(const json& body) {
  auto parsed = RegistrationFromJson(body);
  REQUIRE_FALSE(parsed);
  return parsed.error().field;
}

TEST_CASE("a registration with the seed's fields is read", "[unit]") {
  auto parsed = RegistrationFromJson(Registration());
  REQUIRE(parsed);
  CHECK(parsed->agent_id == "agent-001");
  CHECK(parsed->capabilities == std::vector<std::string>{"org-data-read", "user-auth"});
  CHECK(parsed->scenes == std::vector<std::string>{"auth"});
  CHECK_FALSE(parsed->descriptor.has_value());
}

TEST_CASE("capabilities and scenes may use the seed's comma-separated form", "[unit]") {
  json body = Registration();
  body["capabilities"] = "org-data-read,user-auth";
  body["scenes"] = "auth";
  auto parsed = RegistrationFromJson(body);
  REQUIRE(parsed);
  CHECK(parsed->capabilities.size() == 2);
  CHECK(parsed->scenes == std::vector<std::string>{"auth"});
}

TEST_CASE("a descriptor is read with its schema kept as JSON text", "[unit]") {
  json body = Registration();
  body["descriptor"] = {{"name", "Feishu"},
                        {"tags", {"org"}},
                        {"access", "public"},
                        {"inputSchema", {{"type", "object"}}},
                        {"skillMdSha256", std::string(64, 'a')}};
  auto parsed = RegistrationFromJson(body);
  REQUIRE(parsed);
  REQUIRE(parsed->descriptor);
  CHECK(parsed->descriptor->input_schema == R"({"type":"object"})");
  CHECK(parsed->descriptor->skill_md_sha256.has_value());
}

TEST_CASE("each bad registration names its field", "[unit]") {
  json body = Registration();
  body.erase("skillId");
  CHECK(FieldOfError(body) == "skillId");
  body = Registration();
  body["version"] = "seven";
  CHECK(FieldOfError(body) == "version");
  body = Registration();
  body["capabilities"] = {"a", 7};
  CHECK(FieldOfError(body) == "capabilities[1]");
  body = Registration();
  body["capabilities"] = {"a", "a"};
  CHECK(FieldOfError(body) == "capabilities[1]");
  body = Registration();
  body["capabilities"] = json::array();
  CHECK(FieldOfError(body) == "capabilities");
  body = Registration();
  body["agentId"] = 5;
  CHECK(FieldOfError(body) == "agentId");
  body = Registration();
  body["colour"] = "blue";
  CHECK(FieldOfError(body) == "colour");
  body = Registration();
  body["descriptor"] = {{"access", "secret"}};
  CHECK(FieldOfError(body) == "descriptor.access");
  body = Registration();
  body["descriptor"] = {{"skillMdSha256", "abc"}};
  CHECK(FieldOfError(body) == "descriptor.skillMdSha256");
}

TEST_CASE("a body that is not a JSON object is refused", "[unit]") {
  CHECK_FALSE(ParseJsonObject("{\"a\": "));
  CHECK_FALSE(ParseJsonObject("[1, 2]"));
  CHECK(ParseJsonObject("{}"));
}

TEST_CASE("the API's skill shape has the section 7.3 keys and the source", "[unit]") {
  auto record = RegistrationFromJson(Registration()).value();
  const json out = SkillJson(record, Source::kDht);
  for (const char* key : {"id", "name", "version", "type", "capabilities", "scenes", "endpoint",
                          "status", "agentId", "provider", "source"}) {
    INFO(key);
    CHECK(out.contains(key));
  }
  CHECK(out["source"] == "dht");
  CHECK(out["status"] == "HEALTHY");
}

}  // namespace
}  // namespace skillnode::discovery
