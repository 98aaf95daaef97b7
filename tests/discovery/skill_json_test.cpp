#include "discovery/skill_json.h"

#include <algorithm>
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
                        {"description", "Org data from Feishu"},
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
  body["descriptor"] = {{"name", "n"}, {"description", "d"}, {"access", "secret"}};
  CHECK(FieldOfError(body) == "descriptor.access");
  body = Registration();
  body["descriptor"] = {{"name", "n"}, {"description", "d"}, {"skillMdSha256", "abc"}};
  CHECK(FieldOfError(body) == "descriptor.skillMdSha256");
  body = Registration();
  body["descriptor"] = {{"name", "n"}, {"description", "d"}, {"tags", {"a", "b;c"}}};
  CHECK(FieldOfError(body) == "descriptor.tags[1]");
  body = Registration();
  body["descriptor"] = "Feishu";
  CHECK(FieldOfError(body) == "descriptor");
  body = Registration();
  body["access"] = "secret";
  CHECK(FieldOfError(body) == "access");
}

TEST_CASE("a registration's descriptor gets every schema violation at once", "[unit]") {
  json body = Registration();
  body["descriptor"] = {{"tags", {"", "ok", "ok"}},
                        {"access", "secret"},
                        {"inputSchema", {{"type", "object"}, {"format", "email"}}}};
  auto parsed = RegistrationFromJson(body);
  REQUIRE_FALSE(parsed);
  const FieldError& error = parsed.error();
  CHECK(error.field == "descriptor");
  std::vector<std::string> pointers;
  for (const auto& v : error.violations) pointers.push_back(v.pointer);
  INFO(error.message);
  // name and description are required; both missing are reported at the descriptor's root.
  std::sort(pointers.begin(), pointers.end());
  CHECK(pointers ==
        std::vector<std::string>{"", "", "/access", "/inputSchema/format", "/tags", "/tags/0"});
  CHECK(error.message.starts_with("6 schema violations: "));
  CHECK(error.message.find("required: Missing required property 'description'") !=
        std::string::npos);
  CHECK(error.message.find("/tags/0: minLength: ") != std::string::npos);
  CHECK(error.message.find("/inputSchema/format: format: 'email' is not checked") !=
        std::string::npos);
}

TEST_CASE("a registration without name or description in its descriptor is refused", "[unit]") {
  json body = Registration();
  body["descriptor"] = {{"name", "Feishu"}, {"tags", {"org"}}};
  auto parsed = RegistrationFromJson(body);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().field == "descriptor");
  CHECK(parsed.error().message == "required: Missing required property 'description'");
  REQUIRE(parsed.error().violations.size() == 1);
}

TEST_CASE("access may be given at the top level; it must agree with the descriptor's", "[unit]") {
  json body = Registration();
  body["access"] = "private";
  auto parsed = RegistrationFromJson(body);
  REQUIRE(parsed);
  REQUIRE(parsed->descriptor);
  CHECK(parsed->descriptor->access == "private");
  CHECK(parsed->descriptor->name.empty());

  body["descriptor"] = {{"name", "n"}, {"description", "d"}, {"access", "private"}};
  parsed = RegistrationFromJson(body);
  REQUIRE(parsed);
  CHECK(parsed->descriptor->access == "private");
  CHECK(parsed->descriptor->name == "n");

  body["descriptor"]["access"] = "public";
  parsed = RegistrationFromJson(body);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().field == "access");
  CHECK(parsed.error().message.find("must agree") != std::string::npos);

  body.erase("access");
  parsed = RegistrationFromJson(body);
  REQUIRE(parsed);
  CHECK(parsed->descriptor->access == "public");
  // Absent everywhere: public, and no descriptor is made up.
  parsed = RegistrationFromJson(Registration());
  REQUIRE(parsed);
  CHECK_FALSE(parsed->descriptor);
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
