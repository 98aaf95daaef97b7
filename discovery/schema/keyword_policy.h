// The keyword policy of JsonSchema (json_schema.h): walks every subschema of a schema, from
// the root and from each `$ref` target, and refuses whatever valijson 1.0 would not check for
// the declared draft, naming the keyword and its JSON pointer in the schema. Pure functions.
#ifndef SKILLNODE_DISCOVERY_SCHEMA_KEYWORD_POLICY_H_
#define SKILLNODE_DISCOVERY_SCHEMA_KEYWORD_POLICY_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "discovery/schema/json_schema.h"

namespace skillnode::discovery::schema {

// Every keyword `schema` uses that this validator cannot check (empty when there is none).
std::vector<SchemaViolation> CheckKeywords(const nlohmann::json& schema, Draft draft);

// The JSON pointer a local `$ref` names ("#/definitions/a%20b" -> "/definitions/a b"), or
// nullopt when `ref` is not a string naming a JSON pointer in the same document.
std::optional<std::string> LocalPointer(const nlohmann::json& ref);

// The value `pointer` names in `root`, or nullptr.
const nlohmann::json* Resolve(const nlohmann::json& root, const std::string& pointer);

}  // namespace skillnode::discovery::schema

#endif  // SKILLNODE_DISCOVERY_SCHEMA_KEYWORD_POLICY_H_
