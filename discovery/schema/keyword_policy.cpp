#include "discovery/schema/keyword_policy.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <regex>
#include <set>
#include <string>

#include "discovery/schema/format_patterns.h"

namespace skillnode::discovery::schema {
namespace {

using nlohmann::json;
using Names = std::set<std::string, std::less<>>;

// A pattern's length: std::regex's compiler recurses per nesting level, so bound its input.
constexpr size_t kPatternLengthMax = 1024;

// Keywords that describe and never validate (plus definitions, which only holds subschemas).
const Names kAnnotations = {"title", "description", "default", "definitions", "$schema"};
const Names kDraft7Annotations = {"$comment", "readOnly", "writeOnly", "examples"};
// Keywords valijson 1.0's parser turns into constraints, for drafts 4 and 7 (schema_parser.hpp).
const Names kValidation = {"$ref",
                           "type",
                           "enum",
                           "allOf",
                           "anyOf",
                           "oneOf",
                           "not",
                           "properties",
                           "patternProperties",
                           "additionalProperties",
                           "required",
                           "dependencies",
                           "minProperties",
                           "maxProperties",
                           "items",
                           "additionalItems",
                           "minItems",
                           "maxItems",
                           "uniqueItems",
                           "minLength",
                           "maxLength",
                           "pattern",
                           "minimum",
                           "maximum",
                           "exclusiveMinimum",
                           "exclusiveMaximum",
                           "multipleOf",
                           "format"};
const Names kDraft7Validation = {"const", "contains", "propertyNames", "if", "then", "else"};
const Names kTypes = {"array", "boolean", "integer", "null", "number", "object", "string"};

// The formats valijson 1.0 checks (validation_visitor.hpp; any other it lets pass unchecked),
// and those JsonSchema checks as a pattern of their grammar (format_patterns.h).
bool FormatChecked(Draft draft, const std::string& format) {
  return format == "date-time" ||
         (draft == Draft::kDraft7 && (format == "date" || format == "time")) ||
         FormatPattern(draft, format).has_value();
}

std::string PercentDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The keyword policy: walks every subschema of the document, from the root and from each
// `$ref` target, and refuses whatever valijson would not check.
class Walker {
 public:
  Walker(const json& root, Draft draft) : root_(root), draft_(draft) {}
  std::vector<SchemaViolation> violations;

  void Schema(const json& node, const std::string& pointer) {
    if (!walked_.insert(pointer).second) return;
    if (node.is_boolean()) {
      if (draft_ == Draft::kDraft4) Refuse(pointer, "a boolean schema is a draft-07 feature");
      return;
    }
    if (!node.is_object()) {
      Refuse(pointer, std::string("a schema must be an object, not ") + node.type_name());
      return;
    }
    const bool has_ref = node.contains("$ref");
    for (const auto& [key, value] : node.items()) {
      const std::string at = AppendPointer(pointer, key);
      if (has_ref && key != "$ref" && !IsAnnotation(key)) {
        Refuse(at, key + ": drafts 4 and 7 ignore every keyword beside $ref");
        continue;
      }
      Keyword(node, key, value, pointer, at);
    }
  }

 private:
  bool IsAnnotation(const std::string& key) const {
    return kAnnotations.contains(key) || key == IdKeyword() || kDraft7Annotations.contains(key);
  }
  std::string IdKeyword() const { return draft_ == Draft::kDraft4 ? "id" : "$id"; }
  bool IsValidation(const std::string& key) const {
    return kValidation.contains(key) ||
           (draft_ == Draft::kDraft7 && kDraft7Validation.contains(key));
  }
  void Refuse(const std::string& pointer, std::string reason) {
    violations.push_back({pointer, std::move(reason)});
  }
  void SchemaMap(const json& value, const std::string& at, const std::string& key) {
    if (!value.is_object()) return Refuse(at, key + ": must be an object of schemas");
    for (const auto& [name, child] : value.items()) Schema(child, AppendPointer(at, name));
  }
  void SchemaArray(const json& value, const std::string& at, const std::string& key) {
    if (!value.is_array() || value.empty()) {
      return Refuse(at, key + ": must be a non-empty array of schemas");
    }
    for (size_t i = 0; i < value.size(); ++i)
      Schema(value[i], AppendPointer(at, std::to_string(i)));
  }
  void CountKeyword(const json& value, const std::string& at, const std::string& key) {
    if (!value.is_number_unsigned()) Refuse(at, key + ": must be a non-negative integer");
  }
  void Pattern(const std::string& text, const std::string& at, const std::string& key) {
    if (text.size() > kPatternLengthMax) {
      return Refuse(at, key + ": a pattern longer than " + std::to_string(kPatternLengthMax) +
                            " characters is refused");
    }
    try {
      std::regex compiled(text, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      Refuse(at, key + ": '" + text + "' is not a regular expression std::regex accepts (" +
                     e.what() + ")");
    }
  }
  void Ref(const json& value, const std::string& at) {
    if (!value.is_string()) return Refuse(at, "$ref: must be a string");
    const std::string& text = value.get_ref<const std::string&>();
    if (text.empty() || text[0] != '#') {
      return Refuse(at, "$ref: '" + text +
                            "' names another document; remote references are refused (no "
                            "network fetches); use \"#/definitions/...\"");
    }
    auto pointer = LocalPointer(value);
    if (!pointer) {
      return Refuse(at, "$ref: '" + text +
                            "' is a plain-name fragment, which valijson 1.0 does not resolve; "
                            "use a JSON pointer such as \"#/definitions/name\"");
    }
    const json* target = Resolve(root_, *pointer);
    if (target == nullptr) return Refuse(at, "$ref: '" + text + "' does not resolve");
    Schema(*target, *pointer);
  }
  void Keyword(const json& node, const std::string& key, const json& value,
               const std::string& pointer, const std::string& at);
  bool ValueKeyword(const json& node, const std::string& key, const json& value,
                    const std::string& at);
  void SubschemaKeyword(const json& node, const std::string& key, const json& value,
                        const std::string& at);

  const json& root_;
  Draft draft_;
  std::set<std::string> walked_;
};

void Walker::Keyword(const json& node, const std::string& key, const json& value,
                     const std::string& pointer, const std::string& at) {
  if (key == "$schema") {
    if (pointer.empty()) return;  // DeclaredDraft checked it
    if (!root_.is_object() || root_.value("$schema", json()) != value) {
      Refuse(at, "$schema: only the root declares the draft");
    }
  } else if (key == "id" || key == "$id") {
    if (key != IdKeyword()) {
      Refuse(at, key + ": not a " + std::string(DraftName(draft_)) + " keyword; " +
                     std::string(DraftName(draft_)) + " names a schema with " + IdKeyword());
    } else if (!value.is_string()) {
      Refuse(at, key + ": must be a string");
    } else if (!pointer.empty()) {
      Refuse(at, key +
                     ": only the root may set a base URI; valijson 1.0 does not follow base-URI "
                     "changes in subschemas (use definitions and \"#/definitions/...\")");
    }
  } else if (key == "title" || key == "description" || key == "$comment") {
    if (!value.is_string()) Refuse(at, key + ": must be a string");
  } else if (key == "readOnly" || key == "writeOnly") {
    if (!value.is_boolean()) Refuse(at, key + ": must be a boolean");
  } else if (key == "examples") {
    if (!value.is_array()) Refuse(at, key + ": must be an array");
  } else if (key == "default") {
  } else if (key == "definitions" || key == "properties") {
    SchemaMap(value, at, key);
  } else if (!IsValidation(key)) {
    std::string reason = key + ": not a keyword this validator checks in " +
                         std::string(DraftName(draft_)) + " (refused rather than ignored)";
    if (kDraft7Validation.contains(key)) {
      reason = key + ": a draft-07 keyword, but this schema declares draft-04";
    } else if (key == "$defs") {
      reason += "; $defs is Draft 2019-09's, use definitions";
    }
    Refuse(at, reason);
  } else if (key == "$ref") {
    Ref(value, at);
  } else if (!ValueKeyword(node, key, value, at)) {
    SubschemaKeyword(node, key, value, at);
  }
}

// Keywords whose value is data: checked so that a malformed one is refused with its pointer.
bool Walker::ValueKeyword(const json& node, const std::string& key, const json& value,
                          const std::string& at) {
  if (key == "const") {
  } else if (key == "type") {
    const bool ok =
        value.is_string() ? kTypes.contains(value.get<std::string>())
        : value.is_array()
            ? !value.empty() && std::all_of(value.begin(), value.end(),
                                            [](auto& t) {
                                              return t.is_string() &&
                                                     kTypes.contains(t.template get<std::string>());
                                            })
            : false;
    if (!ok)
      Refuse(at,
             "type: must name one or more of array, boolean, integer, null, "
             "number, object, string");
  } else if (key == "enum") {
    if (!value.is_array() || value.empty()) Refuse(at, "enum: must be a non-empty array");
  } else if (key == "required") {
    const bool ok = value.is_array() && (draft_ == Draft::kDraft7 || !value.empty()) &&
                    std::all_of(value.begin(), value.end(), [](auto& v) { return v.is_string(); });
    if (!ok) Refuse(at, "required: must be an array of property names");
  } else if (key.starts_with("min") || key.starts_with("max")) {
    if (key == "minimum" || key == "maximum") {
      if (!value.is_number()) Refuse(at, key + ": must be a number");
    } else {
      CountKeyword(value, at, key);
    }
  } else if (key == "exclusiveMinimum" || key == "exclusiveMaximum") {
    const std::string bound = key == "exclusiveMinimum" ? "minimum" : "maximum";
    if (draft_ == Draft::kDraft7 && !value.is_number()) {
      Refuse(at, key + ": must be a number in draft-07");
    } else if (draft_ == Draft::kDraft4 && (!value.is_boolean() || !node.contains(bound))) {
      Refuse(at, key + ": in draft-04 must be a boolean beside " + bound);
    }
  } else if (key == "multipleOf") {
    if (!value.is_number() || value.get<double>() <= 0) {
      Refuse(at, "multipleOf: must be a number above 0");
    }
  } else if (key == "uniqueItems") {
    if (!value.is_boolean()) Refuse(at, "uniqueItems: must be a boolean");
  } else if (key == "pattern") {
    if (!value.is_string()) {
      Refuse(at, "pattern: must be a string");
      return true;
    }
    Pattern(value.get<std::string>(), at, key);
  } else if (key == "format") {
    if (!value.is_string()) {
      Refuse(at, "format: must be a string");
      return true;
    }
    const std::string format = value.get<std::string>();
    if (!FormatChecked(draft_, format)) {
      Refuse(at, "format: '" + format + "' is not checked by this validator (" +
                     (draft_ == Draft::kDraft7 ? "date, date-time, time, uri and uri-template are"
                                               : "date-time and uri are") +
                     "); use pattern");
    } else if (node.value("type", json()) != "string") {
      Refuse(at, "format: needs \"type\": \"string\" beside it (valijson 1.0 would apply '" +
                     format + "' to numbers too)");
    }
  } else {
    return false;
  }
  return true;
}

// Keywords whose value holds subschemas, each walked in turn.
void Walker::SubschemaKeyword(const json& node, const std::string& key, const json& value,
                              const std::string& at) {
  if (key == "patternProperties") {
    SchemaMap(value, at, key);
    if (value.is_object()) {
      for (const auto& [name, child] : value.items()) Pattern(name, AppendPointer(at, name), key);
    }
  } else if (key == "additionalProperties" || key == "additionalItems") {
    if (key == "additionalItems" && !(node.contains("items") && node["items"].is_array())) {
      return Refuse(at, "additionalItems: has no effect unless items is an array");
    }
    if (!value.is_boolean()) Schema(value, at);
  } else if (key == "items") {
    if (value.is_array()) {
      for (size_t i = 0; i < value.size(); ++i)
        Schema(value[i], AppendPointer(at, std::to_string(i)));
    } else {
      Schema(value, at);
    }
  } else if (key == "dependencies") {
    if (!value.is_object()) return Refuse(at, "dependencies: must be an object");
    for (const auto& [name, child] : value.items()) {
      if (child.is_array()) {
        if (!std::all_of(child.begin(), child.end(), [](auto& v) { return v.is_string(); })) {
          Refuse(AppendPointer(at, name), "dependencies: must list property names");
        }
      } else {
        Schema(child, AppendPointer(at, name));
      }
    }
  } else if (key == "allOf" || key == "anyOf" || key == "oneOf") {
    SchemaArray(value, at, key);
  } else if ((key == "then" || key == "else") && !node.contains("if")) {
    Refuse(at, key + ": has no effect without if");
  } else {  // not, contains, propertyNames, if, then, else: one schema
    Schema(value, at);
  }
}

}  // namespace

// The JSON pointer a local `$ref` names ("#/definitions/a" -> "/definitions/a"), if it is one.
std::optional<std::string> LocalPointer(const json& ref) {
  if (!ref.is_string()) return std::nullopt;
  const std::string& text = ref.get_ref<const std::string&>();
  if (text.empty() || text[0] != '#') return std::nullopt;
  std::string pointer = PercentDecode(std::string_view(text).substr(1));
  if (!pointer.empty() && pointer[0] != '/') return std::nullopt;
  return pointer;
}

const json* Resolve(const json& root, const std::string& pointer) {
  try {
    const json::json_pointer parsed(pointer);
    return root.contains(parsed) ? &root.at(parsed) : nullptr;
  } catch (const json::exception&) {
    return nullptr;
  }
}

std::vector<SchemaViolation> CheckKeywords(const json& schema, Draft draft) {
  Walker walker(schema, draft);
  walker.Schema(schema, "");
  return std::move(walker.violations);
}

}  // namespace skillnode::discovery::schema
