#include "discovery/schema/descriptor_schema.h"

#include <algorithm>
#include <catch2/catch.hpp>

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;

// The full document a node serves at /skills/{id}/descriptor.json.
json FullDescriptor() {
  return json::parse(R"({
    "id": "com.example.translate-v1", "name": "Universal Translator",
    "description": "Text translation", "version": "2.1.0", "capabilityType": "api",
    "access": "restricted", "agentId": "agent-001", "skillId": "com.example.translate-v1",
    "skillType": "tool-skill", "endpoint": "http://127.0.0.1:8080/api",
    "capabilities": ["translate"], "scenes": ["office"], "tags": ["text", "language"],
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                    "required": ["text"]},
    "outputSchema": {"type": "object"}, "examples": ["translate 'hello' to French"],
    "skillMdSha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "provider": {"name": "Example Corp", "url": "https://example.com",
                 "nodeId": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
    "status": "HEALTHY"})");
}

std::string Listed(const std::vector<SchemaViolation>& violations) {
  std::string text;
  for (const auto& v : violations) text += ToString(v) + "\n";
  return text;
}

TEST_CASE("the shipped schema is draft-07 and names the path it is served at", "[unit]") {
  const json schema = json::parse(SkillDescriptorSchemaText());
  CHECK(schema["$schema"] == "http://json-schema.org/draft-07/schema#");
  CHECK(schema["$id"] == std::string(kSkillDescriptorSchemaPath));
  CHECK(schema["additionalProperties"] == false);
  CHECK(JsonSchema::Compile(schema));
}

TEST_CASE("the full descriptor document and a registration's descriptor are valid", "[unit]") {
  INFO(Listed(ValidateDescriptor(FullDescriptor())));
  CHECK(ValidateDescriptor(FullDescriptor()).empty());
  const json registration = {{"name", "Feishu"}, {"description", "Org data"}, {"tags", {"org"}}};
  CHECK(ValidateDescriptor(registration).empty());
}

TEST_CASE("every descriptor violation is reported with its pointer", "[unit]") {
  json d = FullDescriptor();
  d.erase("name");
  d["tags"] = {"ok", "", "a;b", "ok"};
  d["version"] = "1.2";
  d["access"] = "secret";
  d["skillMdSha256"] = "abc";
  d["provider"]["colour"] = "blue";
  d["colour"] = "red";
  d["capabilities"] = json::array();
  const auto violations = ValidateDescriptor(d);
  INFO(Listed(violations));
  for (const auto& expected : {std::pair{"", "required:"},
                               {"", "additionalProperties:"},
                               {"/tags", "uniqueItems:"},
                               {"/tags/1", "minLength:"},
                               {"/tags/2", "pattern:"},
                               {"/version", "pattern:"},
                               {"/access", "enum:"},
                               {"/skillMdSha256", "pattern:"},
                               {"/provider", "additionalProperties:"},
                               {"/capabilities", "minItems:"}}) {
    INFO(expected.first << " " << expected.second);
    CHECK(std::any_of(violations.begin(), violations.end(), [&](const SchemaViolation& v) {
      return v.pointer == expected.first && v.reason.starts_with(expected.second);
    }));
  }
  CHECK(violations.size() == 10);
}

// `count` CJK characters (three UTF-8 bytes each).
std::string Cjk(size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += "\xE6\xBC\xA2";
  return out;
}

TEST_CASE("the limits of kademlia/store/record/skill_record.h are in the schema", "[unit]") {
  json d = {{"name", std::string(129, 'n')},
            {"description", Cjk(1025)},
            {"tags", {"1", "2", "3", "4", "5", "6", "7", "8", "9"}},
            {"examples", {"a", "b", "c", "d", "e", "f", "g", "h", "i"}}};
  const auto violations = ValidateDescriptor(d);
  INFO(Listed(violations));
  CHECK(violations.size() == 4);
  // A description of 1,024 characters, as the Agent Skills format allows, in any script.
  d = {{"name", std::string(128, 'n')}, {"description", Cjk(1024)}};
  CHECK(ValidateDescriptor(d).empty());
}

TEST_CASE("examples are text or {name, input, description} objects, each within its bytes",
          "[unit]") {
  json d = {{"name", "n"},
            {"description", ""},
            {"examples",
             {"text",
              {{"name", "by department"}, {"input", {{"dept", "sales"}}}},
              {{"input", json::array({1, 2})}, {"description", "a list"}},
              {{"input", nullptr}}}}};
  INFO(Listed(ValidateDescriptor(d)));
  CHECK(ValidateDescriptor(d).empty());
  d["examples"] =
      json::array({json::object(), json{{"input", 1}, {"output", 2}}, 42, json{{"name", ""}}});
  const auto violations = ValidateDescriptor(d);
  INFO(Listed(violations));
  for (const char* pointer : {"/examples/0", "/examples/1", "/examples/2", "/examples/3"}) {
    INFO(pointer);
    CHECK(std::any_of(violations.begin(), violations.end(),
                      [&](const SchemaViolation& v) { return v.pointer == pointer; }));
  }
  // 1,024 characters fit the schema; as bytes, an example must fit the record as well.
  d["examples"] = json::array({Cjk(400), json{{"input", std::string(1100, 'x')}}});
  const auto sizes = ValidateDescriptor(d);
  INFO(Listed(sizes));
  REQUIRE(sizes.size() == 2);
  CHECK(ToString(sizes[0]) == "/examples/0: size: 1200 bytes, more than 1024 (kExampleLengthMax)");
  CHECK(ToString(sizes[1]) ==
        "/examples/1: size: 1112 bytes as compact JSON, more than 1024 (kExampleLengthMax)");
}

TEST_CASE("inputSchema and outputSchema must compile as schemas", "[unit]") {
  json d = {
      {"name", "n"},
      {"description", ""},
      {"inputSchema", {{"$schema", "https://json-schema.org/draft/2020-12/schema"}}},
      {"outputSchema", {{"properties", {{"when", {{"type", "string"}, {"format", "email"}}}}}}}};
  const auto violations = ValidateDescriptor(d);
  INFO(Listed(violations));
  REQUIRE(violations.size() == 2);
  CHECK(violations[0].pointer == "/inputSchema/$schema");
  CHECK(violations[0].reason.find("Draft 2020-12 is not supported") != std::string::npos);
  CHECK(violations[1].pointer == "/outputSchema/properties/when/format");
  CHECK(violations[1].reason.starts_with("format: 'email' is not checked"));
  d["inputSchema"] = {{"type", "object"}, {"unevaluatedProperties", false}};
  d.erase("outputSchema");
  CHECK(
      Listed(ValidateDescriptor(d))
          .starts_with("/inputSchema/unevaluatedProperties: unevaluatedProperties: not a keyword"));
  d["inputSchema"] = {{"enum", json::array()}};
  for (int i = 0; i < 100; ++i) d["inputSchema"]["enum"].push_back(i * 1000);
  CHECK(Listed(ValidateDescriptor(d)).starts_with("/inputSchema: size: "));
  d["inputSchema"] = "{\"type\": \"object\"}";
  CHECK(Listed(ValidateDescriptor(d)).starts_with("/inputSchema: type:"));
}

TEST_CASE("fmt prints the schema's key order with a 2-space indent and a newline", "[unit]") {
  const json d = FullDescriptor();
  const std::string text = FormatDescriptor(d);
  CHECK(text.ends_with("}\n"));
  CHECK(text.starts_with("{\n  \"id\": \"com.example.translate-v1\",\n  \"name\": "));
  const std::vector<std::string> order = {"\"id\"",       "\"name\"",           "\"description\"",
                                          "\"version\"",  "\"capabilityType\"", "\"access\"",
                                          "\"agentId\"",  "\"skillId\"",        "\"skillType\"",
                                          "\"endpoint\"", "\"capabilities\"",   "\"scenes\"",
                                          "\"tags\"",     "\"inputSchema\"",    "\"outputSchema\"",
                                          "\"examples\"", "\"skillMdSha256\"",  "\"provider\"",
                                          "\"status\""};
  size_t at = 0;
  for (const std::string& key : order) {
    INFO(key);
    const size_t next = text.find("\n  " + key, at);
    CHECK(next != std::string::npos);
    at = next == std::string::npos ? at : next;
  }
  CHECK(text.find("\"provider\": {\n    \"name\": \"Example Corp\",\n    \"url\"") !=
        std::string::npos);
  CHECK(json::parse(text) == d);
}

TEST_CASE("no regular expression of the schema applies to the description or the examples",
          "[unit]") {
  // ValidateDescriptor lets strings there be longer than kPatternSubjectLengthMax.
  const json schema = json::parse(SkillDescriptorSchemaText());
  const std::string description = schema["properties"]["description"].dump();
  const std::string examples =
      schema["properties"]["examples"].dump() + schema["definitions"]["example"].dump();
  for (const char* keyword : {"\"pattern\"", "\"patternProperties\"", "\"format\""}) {
    INFO(keyword);
    CHECK(description.find(keyword) == std::string::npos);
    CHECK(examples.find(keyword) == std::string::npos);
  }
}

}  // namespace
}  // namespace skillnode::discovery::schema
