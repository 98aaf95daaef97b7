// JsonSchema: a JSON Schema compiled once and checked against many instances, built on valijson
// 1.0 (Debian's libvalijson-dev, headers only; see docs/dependencies.md and docs/schema.md).
//
// Drafts: a schema may declare Draft 7 ("http://json-schema.org/draft-07/schema#") or Draft 4
// ("http://json-schema.org/draft-04/schema#"); a schema without "$schema" is Draft 7. Any other
// "$schema" (2020-12, 2019-09, Draft 6, Draft 3, an unknown URI) is refused naming it: valijson
// 1.0 implements drafts 3, 4 and 7 only, and Draft 3 is not offered.
//
// Keyword policy (schema_policy.h): a schema using a keyword the validator would not check is
// refused, naming the keyword and its JSON pointer in the schema; nothing is silently ignored.
// `format` is accepted only for the formats valijson checks (date-time; in Draft 7 also date and
// time) and those checked here as a pattern of their grammar (uri; in Draft 7 also uri-template:
// format_patterns.h), and only next to "type": "string". `$ref` must be a local JSON pointer
// ("#/..."): there are no network fetches.
//
// Usage, e.g. by the invocation client:
//   auto schema = JsonSchema::Compile(json::parse(record.descriptor->input_schema));
//   if (schema) for (const SchemaViolation& v : schema->Validate(input)) ...
//
// Never throws: valijson's exceptions are caught here. Single-threaded like the rest of
// discovery/; a JsonSchema is immutable after Compile and cheap to copy (shared state).
#ifndef SKILLNODE_DISCOVERY_SCHEMA_JSON_SCHEMA_H_
#define SKILLNODE_DISCOVERY_SCHEMA_JSON_SCHEMA_H_

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

namespace skillnode::discovery::schema {

// One problem: `pointer` is an RFC 6901 JSON pointer ("" for the whole document, "/tags/3"),
// into the instance for Validate and into the schema for Compile; `reason` starts with the
// keyword ("maxLength: ...", "required: ...").
struct SchemaViolation {
  std::string pointer;
  std::string reason;
  bool operator==(const SchemaViolation&) const = default;
};

// "pointer: reason" (or "reason" when the pointer is the whole document).
std::string ToString(const SchemaViolation& violation);
// Appends a token to a JSON pointer, escaping '~' and '/' (RFC 6901).
std::string AppendPointer(std::string_view pointer, std::string_view token);

enum class Draft { kDraft4, kDraft7 };
std::string_view DraftName(Draft draft);  // "draft-04", "draft-07"

// Limits on what Compile accepts and Validate matches (docs/architecture.md "Code rules": a
// limit on everything).
// A schema's compact JSON text: records carry 512 bytes; 64 KiB leaves room for hand-written
// schemas without letting a request make the parser build a huge tree.
constexpr size_t kSchemaTextBytesMax = 64 * 1024;
// Nesting of JSON values in a schema: valijson's parser recurses once per level.
constexpr size_t kSchemaDepthMax = 32;
// Nesting of an instance Validate checks: valijson recurses once per level (with a recursive
// schema such as {"items": {"$ref": "#"}} as deep as the instance goes).
constexpr size_t kInstanceDepthMax = 128;
// libstdc++'s std::regex (which valijson uses for pattern, patternProperties and format)
// recurses once per character and overflows an 8 MiB stack near 4,000 characters under
// AddressSanitizer; strings up to this length are matched, longer ones are a violation.
constexpr size_t kPatternSubjectLengthMax = 1024;

class JsonSchema {
 public:
  // Documents a `$ref` may name by absolute URI (only the JSON-Schema-Test-Suite's remotes).
  using DocumentStore = std::map<std::string, nlohmann::json>;
  struct Options {
    Draft default_draft = Draft::kDraft7;  // when the schema has no "$schema"
    bool keyword_policy = true;            // false only to measure valijson itself (tests)
    const DocumentStore* documents = nullptr;
  };

  // The schema compiled, or every reason it is refused (pointers into the schema).
  [[nodiscard]] static tl::expected<JsonSchema, std::vector<SchemaViolation>> Compile(
      const nlohmann::json& schema);
  [[nodiscard]] static tl::expected<JsonSchema, std::vector<SchemaViolation>> Compile(
      const nlohmann::json& schema, const Options& options);

  // Whether the string (or key) at a JSON pointer of the instance is never matched against a
  // regular expression by this schema (no pattern, patternProperties or format applies there).
  using RegexFree = std::function<bool(std::string_view pointer)>;

  // Every violation of `instance` (empty when it is valid), with pointers into the instance.
  // Strings past kPatternSubjectLengthMax are violations when the schema uses a regular
  // expression, unless `regex_free` says none applies where they are.
  std::vector<SchemaViolation> Validate(const nlohmann::json& instance,
                                        const RegexFree& regex_free = nullptr) const;

  Draft draft() const;

 private:
  struct State;
  explicit JsonSchema(std::shared_ptr<const State> state);
  std::shared_ptr<const State> state_;
};

}  // namespace skillnode::discovery::schema

#endif  // SKILLNODE_DISCOVERY_SCHEMA_JSON_SCHEMA_H_
