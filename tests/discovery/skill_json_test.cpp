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

// `record` signed as a registering node would (with a lifetime).
transport::Result<kademlia::store::SignedRecord> Sign(kademlia::store::SkillRecord record) {
  record.ttl_seconds = 3600;
  record.timestamp_ms = 1'700'000'000'000;
  return kademlia::store::SignRecord(
      std::move(record), kademlia::Identity::FromSeed(kademlia::Key::Sha256("p").bytes()));
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

TEST_CASE("text examples stay text; with an object, each example keeps its form and its place",
          "[unit]") {
  json body = Registration();
  body["descriptor"] = {{"name", "n"}, {"description", "d"}, {"examples", {"42", "find sales"}}};
  auto text = RegistrationFromJson(body);
  REQUIRE(text);
  CHECK(text->descriptor->examples == std::vector<std::string>{"42", "find sales"});
  CHECK(text->descriptor->examples_json.empty());
  CHECK(SkillJson(*text, Source::kLocal)["examples"] == json({"42", "find sales"}));

  const json object = {{"name", "by department"},
                       {"input", {{"dept", "sales"}, {"depth", 2}}},
                       {"description", "Finds a department's people."}};
  body["descriptor"]["examples"] = {"42", object};
  auto mixed = RegistrationFromJson(body);
  REQUIRE(mixed);
  CHECK(mixed->descriptor->examples.empty());
  REQUIRE(mixed->descriptor->examples_json.size() == 2);
  CHECK(mixed->descriptor->examples_json[0] == R"("42")");
  CHECK(json::parse(mixed->descriptor->examples_json[1]) == object);
  // Signed, verified and shown again: "42" is still a string, the object the same object.
  auto signed_record = Sign(*mixed);
  INFO((signed_record ? "" : signed_record.error().message));
  REQUIRE(signed_record);
  auto verified = kademlia::store::VerifyRecord(signed_record->encoded, signed_record->signature);
  REQUIRE(verified);
  CHECK(SkillJson(verified->record, Source::kDht)["examples"] == json({"42", object}));
  CHECK(ExamplesJson(*verified->record.descriptor) == json({"42", object}));
}

TEST_CASE("examples that are neither text nor objects of the document's form are refused",
          "[unit]") {
  json body = Registration();
  for (const json& examples :
       {json({"a", 7}), json::array({json{{"name", "n"}, {"colour", "red"}}, "a"})}) {
    body["descriptor"] = {{"name", "n"}, {"description", "d"}, {"examples", examples}};
    INFO(examples.dump());
    auto parsed = RegistrationFromJson(body);
    REQUIRE_FALSE(parsed);
    const std::string bad = examples[0].is_object() ? "/examples/0" : "/examples/1";
    CHECK(std::any_of(parsed.error().violations.begin(), parsed.error().violations.end(),
                      [&](const schema::SchemaViolation& v) { return v.pointer == bad; }));
  }
}

TEST_CASE("a description of 1,024 CJK characters registers, signs and is shown whole", "[unit]") {
  std::string description;
  for (int i = 0; i < 1024; ++i) description += "\xE6\xBC\xA2";
  json body = Registration();
  body["descriptor"] = {{"name", "n"}, {"description", description}};
  auto parsed = RegistrationFromJson(body);
  REQUIRE(parsed);
  auto signed_record = Sign(*parsed);
  REQUIRE(signed_record);
  CHECK(signed_record->encoded.size() > kademlia::store::kRecordInlineSizeMax);
  CHECK(SkillJson(signed_record->record, Source::kDht)["description"] == description);
  body["descriptor"]["description"] = description + "\xE6\xBC\xA2";
  CHECK(FieldOfError(body) == "descriptor.description");
}

TEST_CASE("an imported record shows its origin; a native one has none", "[unit]") {
  auto record = RegistrationFromJson(Registration()).value();
  CHECK_FALSE(SkillJson(record, Source::kDht).contains("origin"));
  kademlia::store::RecordOrigin origin;
  origin.format = kademlia::store::OriginFormat::kMcpRegistry;
  origin.source_url = "https://registry.example/v0.1/servers";
  origin.document_sha256.fill(0xab);
  origin.document_size = 812;
  origin.signature = kademlia::store::OriginSignature::kUnsigned;
  origin.mcp_status = kademlia::store::McpStatus::kActive;
  origin.updated_at = "2026-05-02T11:30:00Z";
  record.origin = origin;
  const json shown = SkillJson(record, Source::kDht)["origin"];
  std::string digest;
  for (int i = 0; i < 32; ++i) digest += "ab";
  CHECK(shown == json({{"format", "mcp-registry"},
                       {"sourceUrl", "https://registry.example/v0.1/servers"},
                       {"documentSha256", digest},
                       {"documentSize", 812},
                       {"signature", "unsigned"},
                       {"status", "active"},
                       {"updatedAt", "2026-05-02T11:30:00Z"}}));
  // An A2A card's origin names its source's domain and whether the importer proved it.
  origin.format = kademlia::store::OriginFormat::kA2a;
  origin.mcp_status = kademlia::store::McpStatus::kNone;
  origin.updated_at.clear();
  origin.publisher_domain = "agent.example.org";
  origin.publisher_domain_state = kademlia::store::OriginDomainState::kUnverified;
  record.origin = origin;
  const json a2a = SkillJson(record, Source::kDht)["origin"];
  CHECK(a2a["publisherDomain"] == "agent.example.org");
  CHECK(a2a["publisherDomainState"] == "unverified");
}

}  // namespace
}  // namespace skillnode::discovery
