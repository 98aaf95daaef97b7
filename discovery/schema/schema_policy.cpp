#include "discovery/schema/schema_policy.h"

#include <algorithm>
#include <set>
#include <string>

#include "discovery/schema/keyword_policy.h"

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;

size_t Depth(const json& value, size_t cap) {
  if (cap == 0 || !value.is_structured()) return 1;
  size_t deepest = 0;
  for (const json& child : value) deepest = std::max(deepest, Depth(child, cap - 1));
  return deepest + 1;
}

bool UsesRegex(const json& value) {
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      if (key == "pattern" || key == "patternProperties" || key == "format") return true;
      if (UsesRegex(child)) return true;
    }
  } else if (value.is_array()) {
    for (const json& child : value) {
      if (UsesRegex(child)) return true;
    }
  }
  return false;
}

// `$ref` chains that come back to themselves without reaching a schema.
void FindRefCycles(const json& root, const json& node, const std::string& pointer,
                   std::vector<SchemaViolation>& out) {
  if (node.is_object()) {
    if (auto it = node.find("$ref"); it != node.end() && LocalPointer(*it)) {
      std::set<std::string> seen = {pointer};
      const json* current = &node;
      while (current->is_object() && current->contains("$ref")) {
        auto next = LocalPointer(current->at("$ref"));
        if (!next) break;
        if (!seen.insert(*next).second) {
          out.push_back({AppendPointer(pointer, "$ref"),
                         "$ref: the chain of references through '#" + *next +
                             "' comes back to itself without reaching a schema"});
          break;
        }
        current = Resolve(root, *next);
        if (current == nullptr) break;
      }
    }
    for (const auto& [key, child] : node.items()) {
      FindRefCycles(root, child, AppendPointer(pointer, key), out);
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) {
      FindRefCycles(root, node[i], AppendPointer(pointer, std::to_string(i)), out);
    }
  }
}

}  // namespace

tl::expected<Draft, SchemaViolation> DeclaredDraft(const json& schema, Draft default_draft) {
  if (!schema.is_object() || !schema.contains("$schema")) return default_draft;
  const json& declared = schema["$schema"];
  if (!declared.is_string())
    return tl::unexpected(SchemaViolation{"/$schema", "$schema: must be a string"});
  std::string uri = declared.get<std::string>();
  if (uri.ends_with("#")) uri.pop_back();
  if (uri.starts_with("https://")) uri.erase(4, 1);
  if (uri == "http://json-schema.org/draft-07/schema") return Draft::kDraft7;
  if (uri == "http://json-schema.org/draft-04/schema") return Draft::kDraft4;
  std::string name = "'" + declared.get<std::string>() + "', an unknown draft,";
  for (auto [marker, draft] : {std::pair{"2020-12", "Draft 2020-12"},
                               {"2019-09", "Draft 2019-09"},
                               {"draft-06", "Draft 6"},
                               {"draft-03", "Draft 3"}}) {
    if (uri.find(marker) != std::string::npos) name = draft;
  }
  return tl::unexpected(SchemaViolation{
      "/$schema", "$schema: " + name +
                      " is not supported; a schema may declare draft-07 "
                      "(http://json-schema.org/draft-07/schema#, the default) or draft-04 "
                      "(valijson 1.0 implements drafts 3, 4 and 7, not 2019-09 or 2020-12)"});
}

PolicyResult CheckSchema(const json& schema, Draft default_draft, bool keyword_policy) {
  PolicyResult result;
  const size_t size = schema.dump(-1, ' ', false, json::error_handler_t::replace).size();
  if (size > kSchemaTextBytesMax) {
    result.violations.push_back({"", "the schema is " + std::to_string(size) +
                                         " bytes of JSON, more than " +
                                         std::to_string(kSchemaTextBytesMax)});
    return result;
  }
  if (Depth(schema, kSchemaDepthMax + 1) > kSchemaDepthMax) {
    result.violations.push_back(
        {"", "the schema nests deeper than " + std::to_string(kSchemaDepthMax) + " levels"});
    return result;
  }
  auto draft = DeclaredDraft(schema, default_draft);
  if (!draft && keyword_policy) {
    result.violations.push_back(draft.error());
    return result;
  }
  result.draft = draft.value_or(default_draft);
  FindRefCycles(schema, schema, "", result.violations);
  if (keyword_policy) {
    for (SchemaViolation& v : CheckKeywords(schema, result.draft)) {
      result.violations.push_back(std::move(v));
    }
  }
  result.uses_regex = UsesRegex(schema);
  return result;
}

}  // namespace skillnode::discovery::schema
