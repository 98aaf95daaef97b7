// The checks a schema passes before valijson compiles it (json_schema.h says why).
//
// Safety checks, always applied: the schema's size and nesting (kSchemaTextBytesMax,
// kSchemaDepthMax), and `$ref` chains that never reach a schema (valijson would recurse until
// the stack overflows). The keyword policy, applied unless switched off to measure valijson
// alone: the declared draft is one we support; every keyword is one valijson checks for that
// draft or a pure annotation; `$ref` is a local JSON pointer that resolves, with no validation
// keyword beside it (drafts 4 and 7 ignore them); `id`/`$id` only at the root (valijson does not
// follow base-URI changes in subschemas); patterns compile as std::regex ECMAScript; `format`
// names a format valijson checks and sits next to "type": "string".
//
// Pure functions of the schema; pointers in the violations are into the schema.
#ifndef SKILLNODE_DISCOVERY_SCHEMA_SCHEMA_POLICY_H_
#define SKILLNODE_DISCOVERY_SCHEMA_SCHEMA_POLICY_H_

#include <nlohmann/json.hpp>
#include <vector>

#include "discovery/schema/json_schema.h"

namespace skillnode::discovery::schema {

struct PolicyResult {
  Draft draft = Draft::kDraft7;
  // The schema has pattern, patternProperties or format somewhere: Validate then limits the
  // strings it hands to std::regex (kPatternSubjectLengthMax).
  bool uses_regex = false;
  std::vector<SchemaViolation> violations;  // empty when the schema may be compiled
};

// The draft `schema` declares ("$schema"), `default_draft` when it declares none, or the
// violation naming the unsupported draft.
[[nodiscard]] tl::expected<Draft, SchemaViolation> DeclaredDraft(const nlohmann::json& schema,
                                                                 Draft default_draft);

PolicyResult CheckSchema(const nlohmann::json& schema, Draft default_draft, bool keyword_policy);

}  // namespace skillnode::discovery::schema

#endif  // SKILLNODE_DISCOVERY_SCHEMA_SCHEMA_POLICY_H_
