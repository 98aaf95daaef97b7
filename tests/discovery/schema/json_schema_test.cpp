#include "discovery/schema/json_schema.h"

#include <catch2/catch.hpp>

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;

JsonSchema Compiled(const json& schema) {
  auto compiled = JsonSchema::Compile(schema);
  if (!compiled) {
    for (const SchemaViolation& v : compiled.error()) INFO(ToString(v));
  }
  REQUIRE(compiled);
  return *compiled;
}

// The single reason a schema is refused for.
std::string Refusal(const json& schema) {
  auto compiled = JsonSchema::Compile(schema);
  REQUIRE_FALSE(compiled);
  REQUIRE(compiled.error().size() == 1);
  return ToString(compiled.error()[0]);
}

bool Has(const std::vector<SchemaViolation>& violations, const std::string& pointer,
         const std::string& reason_part) {
  for (const SchemaViolation& v : violations) {
    if (v.pointer == pointer && v.reason.find(reason_part) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("every violation is reported at once, each with its instance pointer", "[unit]") {
  const JsonSchema schema = Compiled(json::parse(R"({
    "type": "object", "required": ["name"], "additionalProperties": false,
    "properties": {
      "name": {"type": "string"},
      "tags": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 4}},
      "a/b": {"type": "integer", "minimum": 1}
    }})"));
  const auto violations = schema.Validate(
      json::parse(R"({"tags": ["ok", "too long", 7, "x", "y"], "a/b": 0, "colour": "red"})"));
  for (const auto& v : violations) INFO(ToString(v));
  CHECK(Has(violations, "", "required: Missing required property 'name'"));
  CHECK(Has(violations, "", "additionalProperties:"));
  CHECK(Has(violations, "/tags", "maxItems:"));
  CHECK(Has(violations, "/tags/1", "maxLength:"));
  CHECK(Has(violations, "/tags/2", "type:"));
  CHECK(Has(violations, "/a~1b", "minimum:"));
  CHECK(violations.size() == 6);  // no "failed to validate item" wrappers
  CHECK(schema.Validate(json::parse(R"({"name": "n", "tags": ["a"]})")).empty());
}

TEST_CASE("a schema without $schema is draft-07; draft-04 may be declared", "[unit]") {
  CHECK(Compiled(json::parse(R"({"const": 1})")).draft() == Draft::kDraft7);
  const JsonSchema four =
      Compiled(json::parse(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                               "maximum": 3, "exclusiveMaximum": true})"));
  CHECK(four.draft() == Draft::kDraft4);
  CHECK(Has(four.Validate(3), "", "exclusiveMaximum:"));
  CHECK(four.Validate(2).empty());
}

TEST_CASE("drafts 2020-12, 2019-09, 6, 3 and unknown URIs are refused naming them", "[unit]") {
  for (auto [uri, name] :
       {std::pair{"https://json-schema.org/draft/2020-12/schema", "Draft 2020-12"},
        {"https://json-schema.org/draft/2019-09/schema", "Draft 2019-09"},
        {"http://json-schema.org/draft-06/schema#", "Draft 6"},
        {"http://json-schema.org/draft-03/schema#", "Draft 3"},
        {"http://example.com/my-schema", "'http://example.com/my-schema', an unknown draft"}}) {
    const std::string refusal = Refusal({{"$schema", uri}, {"type", "string"}});
    INFO(refusal);
    CHECK(refusal.starts_with("/$schema: $schema: " + std::string(name)));
    CHECK(refusal.find("not supported") != std::string::npos);
  }
}

TEST_CASE("a keyword the validator cannot check is refused naming it and its pointer", "[unit]") {
  CHECK(Refusal(json::parse(R"({"properties": {"a": {"unevaluatedProperties": false}}})")) ==
        "/properties/a/unevaluatedProperties: unevaluatedProperties: not a keyword this "
        "validator checks in draft-07 (refused rather than ignored)");
  CHECK(Refusal(json::parse(R"({"$defs": {"a": {}}})")).find("use definitions") !=
        std::string::npos);
  CHECK(Refusal(json::parse(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                                "const": 1})")) ==
        "/const: const: a draft-07 keyword, but this schema declares draft-04");
  CHECK(Refusal(json::parse(R"({"items": {}, "additionalItems": false})"))
            .starts_with("/additionalItems: additionalItems: has no effect"));
  CHECK(Refusal(json::parse(R"({"then": {}})")).starts_with("/then: then: has no effect"));
  CHECK(Refusal(json::parse(R"({"$ref": "#/definitions/a", "maxLength": 2,
                                "definitions": {"a": {}}})"))
            .starts_with("/maxLength: maxLength: drafts 4 and 7 ignore every keyword beside"));
  // Annotations are not validation: accepted.
  Compiled(json::parse(R"({"title": "t", "description": "d", "default": 1, "examples": [1],
                           "$comment": "c", "readOnly": true, "writeOnly": false,
                           "definitions": {"x": {"type": "integer"}}})"));
}

TEST_CASE(
    "format is checked for date, time and date-time beside type string; refused "
    "otherwise",
    "[unit]") {
  const JsonSchema dates = Compiled(json::parse(R"({"type": "string", "format": "date-time"})"));
  CHECK(dates.Validate("2026-11-26T09:00:00Z").empty());
  CHECK(Has(dates.Validate("yesterday"), "", "format:"));
  CHECK(Has(dates.Validate("2026-02-30T09:00:00Z"), "", "format:"));
  CHECK(Refusal(json::parse(R"({"type": "string", "format": "email"})"))
            .starts_with("/format: format: 'email' is not checked by this validator"));
  CHECK(Refusal(json::parse(R"({"format": "date"})"))
            .starts_with("/format: format: needs \"type\": \"string\""));
  CHECK(Refusal(json::parse(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                                "type": "string", "format": "date"})"))
            .find("date-time and uri are") != std::string::npos);
}

TEST_CASE("format uri and uri-template are checked as patterns, inside anyOf too", "[unit]") {
  const JsonSchema links = Compiled(json::parse(R"({
    "type": "object",
    "properties": {
      "site": {"type": "string", "format": "uri", "maxLength": 40},
      "url": {"anyOf": [{"type": "string", "format": "uri-template", "pattern": "^https://"},
                        {"type": "string", "const": "none"}]}}})"));
  CHECK(links.Validate(json{{"site", "https://example.com/a?b#c"}}).empty());
  CHECK(Has(links.Validate(json{{"site", "example.com"}}), "/site", "pattern:"));
  CHECK(links.Validate(json{{"url", "https://x.example/{tenant}/mcp"}}).empty());
  CHECK(links.Validate(json{{"url", "none"}}).empty());
  // The template's own pattern holds, its grammar does not (an unclosed expression).
  CHECK(Has(links.Validate(json{{"url", "https://x.example/{tenant"}}), "/url", "anyOf:"));
  CHECK(Has(links.Validate(json{{"url", "http://x.example"}}), "/url", "anyOf:"));
  CHECK(Refusal(json::parse(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                                "type": "string", "format": "uri-template"})"))
            .starts_with("/format: format: 'uri-template' is not checked"));
  CHECK(Refusal(json::parse(R"({"format": "uri"})"))
            .starts_with("/format: format: needs \"type\": \"string\""));
}

TEST_CASE("remote, plain-name and dangling $refs are refused; local pointers work", "[unit]") {
  CHECK(Refusal(json::parse(R"({"$ref": "http://example.com/s.json"})"))
            .find("remote references are refused") != std::string::npos);
  CHECK(Refusal(json::parse(R"({"$ref": "other.json#/a"})")).find("another document") !=
        std::string::npos);
  CHECK(Refusal(json::parse(R"({"$ref": "#foo"})")).find("plain-name fragment") !=
        std::string::npos);
  CHECK(Refusal(json::parse(R"({"$ref": "#/definitions/none"})")).find("does not resolve") !=
        std::string::npos);
  CHECK(Refusal(json::parse(R"({"properties": {"a": {"$id": "http://x/a.json"}}})"))
            .starts_with("/properties/a/$id: $id: only the root may set a base URI"));
  const JsonSchema tree = Compiled(json::parse(R"({
    "definitions": {"node": {"type": "object", "properties": {
      "value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/definitions/node"}}}}},
    "$ref": "#/definitions/node"})"));
  CHECK(tree.Validate(json::parse(R"({"value": 1, "children": [{"value": 2}]})")).empty());
  CHECK(Has(tree.Validate(json::parse(R"({"children": [{"children": [{"value": "x"}]}]})")),
            "/children/0/children/0/value", "type:"));
}

TEST_CASE("a $ref chain that never reaches a schema is refused, also without the policy",
          "[unit]") {
  const json loop = json::parse(R"({"definitions": {"a": {"$ref": "#/definitions/b"},
                                    "b": {"$ref": "#/definitions/a"}}, "$ref": "#/definitions/a"})");
  CHECK_FALSE(JsonSchema::Compile(loop));
  JsonSchema::Options raw;
  raw.keyword_policy = false;
  auto compiled = JsonSchema::Compile(loop, raw);
  REQUIRE_FALSE(compiled);
  CHECK(ToString(compiled.error()[0]).find("comes back to itself") != std::string::npos);
}

TEST_CASE("limits: schema size and depth, pattern compile, long strings under a pattern",
          "[unit]") {
  json deep = json::object();
  for (size_t i = 0; i < kSchemaDepthMax + 1; ++i) deep = {{"not", deep}};
  CHECK(Refusal(deep).find("nests deeper than") != std::string::npos);
  json big = {{"enum", json::array()}};
  for (int i = 0; i < 10000; ++i) big["enum"].push_back("value-" + std::to_string(i));
  CHECK(Refusal(big).find("bytes of JSON, more than") != std::string::npos);
  CHECK(Refusal(json::parse(R"({"type": "string", "pattern": "(?<=a)b"})"))
            .starts_with("/pattern: pattern: '(?<=a)b' is not a regular expression"));
  const JsonSchema pattern = Compiled(json::parse(R"({"type": "string", "pattern": "^a*$"})"));
  CHECK(pattern.Validate(std::string(kPatternSubjectLengthMax, 'a')).empty());
  CHECK(Has(pattern.Validate(std::string(kPatternSubjectLengthMax + 1, 'a')), "",
            "longer than 1024"));
  // Instances nest at most kInstanceDepthMax levels (valijson recurses per level).
  const JsonSchema recursive = Compiled(json::parse(R"({"items": {"$ref": "#"}})"));
  json nested = json::array();
  for (size_t i = 1; i < kInstanceDepthMax; ++i) nested = json::array({nested});
  CHECK(recursive.Validate(nested).empty());
  CHECK(Has(recursive.Validate(json::array({nested})), "", "depth: "));
  // Without any regex keyword long strings are fine.
  CHECK(Compiled(json::parse(R"({"type": "string"})")).Validate(std::string(100000, 'a')).empty());
}

TEST_CASE("a malformed keyword value is refused with its pointer", "[unit]") {
  CHECK(Refusal(json::parse(R"({"properties": {"a": {"type": "text"}}})"))
            .starts_with("/properties/a/type: type: must name"));
  CHECK(Refusal(json::parse(R"({"maxLength": -1})")) ==
        "/maxLength: maxLength: must be a non-negative integer");
  CHECK(
      Refusal(json::parse(R"({"required": "name"})")).starts_with("/required: required: must be"));
  CHECK(Refusal(json::parse(R"({"allOf": []})")).starts_with("/allOf: allOf: must be"));
  CHECK(Refusal(json::parse(R"({"properties": {"a": 3}})")) ==
        "/properties/a: a schema must be an object, not number");
}

TEST_CASE("boolean schemas are draft-07; draft-07 conditionals are checked", "[unit]") {
  const JsonSchema schema = Compiled(json::parse(R"({
    "properties": {"never": false, "any": true},
    "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
    "then": {"required": ["a"]}, "else": {"required": ["b"]}})"));
  CHECK(schema.Validate(json::parse(R"({"kind": "a", "a": 1})")).empty());
  CHECK(Has(schema.Validate(json::parse(R"({"kind": "a"})")), "", "required:"));
  CHECK(Has(schema.Validate(json::parse(R"({"b": 1, "never": 1})")), "", "properties:"));
  CHECK(Refusal(json::parse(R"({"$schema": "http://json-schema.org/draft-04/schema#",
                                "properties": {"a": false}})")) ==
        "/properties/a: a boolean schema is a draft-07 feature");
}

}  // namespace
}  // namespace skillnode::discovery::schema
