#include "discovery/schema/json_schema.h"

#include <algorithm>
#include <iterator>

// valijson reports errors by throwing only when asked to (otherwise it aborts the process).
#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif
// valijson/exceptions.hpp includes <stdexcept> inside its own namespace: include it first.
#include <stdexcept>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "discovery/schema/format_patterns.h"
#include "discovery/schema/schema_policy.h"

namespace skillnode::discovery::schema {

struct JsonSchema::State {
  valijson::Schema schema;
  Draft draft = Draft::kDraft7;
  bool uses_regex = false;
};

namespace {

using nlohmann::json;
using valijson::adapters::NlohmannJsonAdapter;

// valijson's messages (validation_visitor.hpp) and the keyword each one comes from, most
// specific first.
struct KeywordText {
  const char* text;
  const char* keyword;
};
constexpr KeywordText kKeywords[] = {
    {"anyOf", "anyOf"},
    {"oneOf", "oneOf"},
    {"exactly one child schema", "oneOf"},
    {"if-then-else", "if"},
    {"'const'", "const"},
    {"'contains'", "contains"},
    {"enum values", "enum"},
    {"should be a valid date", "format"},
    {"should be a valid time", "format"},
    {"additional items", "additionalItems"},
    {"'additionalItems'", "additionalItems"},
    {"more items than allowed", "additionalItems"},
    {"less than or equal", "maximum"},
    {"less than", "exclusiveMaximum"},
    {"greater than or equal", "minimum"},
    {"greater than", "exclusiveMinimum"},
    {"Array should contain no more", "maxItems"},
    {"String should be no more", "maxLength"},
    {"Object should have no more", "maxProperties"},
    {"Array should contain no fewer", "minItems"},
    {"String should be no fewer", "minLength"},
    {"Object should have no fewer", "minProperties"},
    {"multiple", "multipleOf"},
    {"'not'", "not"},
    {"'pattern'", "pattern"},
    {"associated with pattern", "patternProperties"},
    {"additionalProperties", "additionalProperties"},
    {"additional properties", "additionalProperties"},
    {"associated with property name", "properties"},
    {"item #", "items"},
    {"'type'", "type"},
    {"uniqueness", "uniqueItems"},
    {"Missing required", "required"},
    {"dependen", "dependencies"},
    {"child schema #", "allOf"},
};

// Messages valijson adds above the errors of a subschema; dropped when those errors are there.
constexpr const char* kWrappers[] = {
    "associated with property name",
    "associated with pattern",
    "additional properties schema",
    "in array.",
    "corresponding item schema",
    "additional items schema",
    "child schema #",
    "dependent schema",
    "if-then-else",
};

bool Contains(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

bool IsWrapper(const std::string& description) {
  return std::any_of(std::begin(kWrappers), std::end(kWrappers),
                     [&](const char* w) { return Contains(description, w); });
}

std::string Reason(const std::string& description) {
  std::string text = description;
  while (!text.empty() && (text.back() == '.' || text.back() == ' ')) text.pop_back();
  for (const KeywordText& k : kKeywords) {
    if (Contains(description, k.text)) return std::string(k.keyword) + ": " + text;
  }
  return text;
}

// valijson's context ("<root>", "[tags]", "[3]") as a JSON pointer ("/tags/3").
std::string ContextPointer(const std::vector<std::string>& context) {
  std::string pointer;
  for (const std::string& part : context) {
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
      pointer = AppendPointer(pointer, std::string_view(part).substr(1, part.size() - 2));
    }
  }
  return pointer;
}

// Strings (and keys) longer than std::regex can safely match; see kPatternSubjectLengthMax.
void LongStrings(const json& value, const std::string& pointer,
                 const JsonSchema::RegexFree& regex_free, std::vector<SchemaViolation>& out) {
  auto too_long = [&](const std::string& text, const std::string& at, const char* what) {
    if (text.size() <= kPatternSubjectLengthMax || (regex_free && regex_free(at))) return;
    out.push_back({at, std::string("pattern: ") + what + " of " + std::to_string(text.size()) +
                           " bytes is longer than " + std::to_string(kPatternSubjectLengthMax) +
                           ", the longest this validator matches a regular expression against "
                           "(the schema has pattern, patternProperties or format)"});
  };
  if (value.is_string()) {
    too_long(value.get_ref<const std::string&>(), pointer, "a string");
  } else if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      const std::string at = AppendPointer(pointer, key);
      too_long(key, at, "a property name");
      LongStrings(child, at, regex_free, out);
    }
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      LongStrings(value[i], AppendPointer(pointer, std::to_string(i)), regex_free, out);
    }
  }
}

bool DeeperThan(const json& value, size_t depth) {
  if (!value.is_structured()) return false;
  if (depth == 0) return true;
  return std::any_of(value.begin(), value.end(),
                     [&](const json& child) { return DeeperThan(child, depth - 1); });
}

}  // namespace

std::string ToString(const SchemaViolation& violation) {
  return violation.pointer.empty() ? violation.reason : violation.pointer + ": " + violation.reason;
}

std::string AppendPointer(std::string_view pointer, std::string_view token) {
  std::string out(pointer);
  out.push_back('/');
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string_view DraftName(Draft draft) {
  return draft == Draft::kDraft4 ? "draft-04" : "draft-07";
}

JsonSchema::JsonSchema(std::shared_ptr<const State> state) : state_(std::move(state)) {}

Draft JsonSchema::draft() const { return state_->draft; }

tl::expected<JsonSchema, std::vector<SchemaViolation>> JsonSchema::Compile(const json& schema) {
  return Compile(schema, Options{});
}

tl::expected<JsonSchema, std::vector<SchemaViolation>> JsonSchema::Compile(const json& schema,
                                                                           const Options& options) {
  PolicyResult policy = CheckSchema(schema, options.default_draft, options.keyword_policy);
  if (!policy.violations.empty()) return tl::unexpected(std::move(policy.violations));
  auto state = std::make_shared<State>();
  state->draft = policy.draft;
  state->uses_regex = policy.uses_regex;
  try {
    valijson::SchemaParser parser(policy.draft == Draft::kDraft4 ? valijson::SchemaParser::kDraft4
                                                                 : valijson::SchemaParser::kDraft7);
    // Under the keyword policy, the formats valijson does not check become patterns.
    const json checked = options.keyword_policy ? WithFormatPatterns(schema, policy.draft) : json();
    const NlohmannJsonAdapter adapter(options.keyword_policy ? checked : schema);
    if (options.documents != nullptr) {
      const DocumentStore* documents = options.documents;
      auto fetch = [documents](const std::string& uri) -> const json* {
        auto it = documents->find(uri);
        return it == documents->end() ? nullptr : new json(it->second);
      };
      auto free = [](const json* document) { delete document; };
      parser.populateSchema<NlohmannJsonAdapter>(adapter, state->schema, fetch, free);
    } else {
      parser.populateSchema(adapter, state->schema);
    }
  } catch (const std::exception& e) {
    return tl::unexpected(std::vector<SchemaViolation>{
        {"", std::string("the schema does not compile: ") + e.what()}});
  }
  return JsonSchema(std::move(state));
}

std::vector<SchemaViolation> JsonSchema::Validate(const json& instance,
                                                  const RegexFree& regex_free) const {
  std::vector<SchemaViolation> out;
  if (DeeperThan(instance, kInstanceDepthMax)) {
    out.push_back({"", "depth: the value nests deeper than " + std::to_string(kInstanceDepthMax) +
                           " levels, the most this validator checks"});
    return out;
  }
  if (state_->uses_regex) {
    LongStrings(instance, "", regex_free, out);
    if (!out.empty()) return out;
  }
  std::vector<std::pair<std::string, std::string>> errors;  // pointer, valijson's description
  try {
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    const NlohmannJsonAdapter target(instance);
    if (validator.validate(state_->schema, target, &results)) return out;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
      errors.emplace_back(ContextPointer(error.context), error.description);
    }
  } catch (const std::exception& e) {
    out.push_back({"", std::string("the validator failed: ") + e.what()});
    return out;
  }
  for (const auto& error : errors) {
    const std::string& pointer = error.first;
    if (IsWrapper(error.second)) {
      const bool explained = std::any_of(errors.begin(), errors.end(), [&](const auto& other) {
        return !IsWrapper(other.second) &&
               (other.first == pointer || other.first.starts_with(pointer + "/"));
      });
      if (explained) continue;
    }
    SchemaViolation violation{pointer, Reason(error.second)};
    if (std::find(out.begin(), out.end(), violation) == out.end()) out.push_back(violation);
  }
  if (out.empty()) out.push_back({"", "false: the schema allows no value here"});
  return out;
}

}  // namespace skillnode::discovery::schema
