// The formats JsonSchema checks beyond valijson's own (json_schema.h): `uri` and `uri-template`,
// each checked as a regular expression of its grammar that replaces the `format` keyword in the
// schema valijson compiles. Owns those grammars and the rewrite; the keyword policy
// (keyword_policy.cpp) asks it which formats it covers. Pure functions; docs/schema.md.
//
// The grammars are character-level:
// - uri (RFC 3986 `URI`, absolute): a scheme, ':', then only URI characters (unreserved,
//   reserved, or a valid %XX escape) with at most one '#' (the fragment); the authority's inner
//   structure (host, port) is not parsed, and non-ASCII characters are refused (an IRI is not a
//   URI).
// - uri-template (RFC 6570, levels 1 to 4): literals and valid %XX escapes, and `{...}`
//   expressions of an optional operator and comma-separated variable names, each with an
//   optional `:N` prefix (1 to 9999) or `*`; non-ASCII literals are refused.
#ifndef SKILLNODE_DISCOVERY_SCHEMA_FORMAT_PATTERNS_H_
#define SKILLNODE_DISCOVERY_SCHEMA_FORMAT_PATTERNS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "discovery/schema/json_schema.h"

namespace skillnode::discovery::schema {

// The ECMAScript regular expression a string of `format` matches in `draft` (uri in both
// drafts; uri-template from Draft 6 on, so Draft 7 here), or nullopt for any other format.
std::optional<std::string_view> FormatPattern(Draft draft, std::string_view format);

// `schema` with every `format` FormatPattern covers, in every subschema (never inside enum,
// const, default or examples), replaced by a `pattern` of its grammar: the subschema's own
// `pattern` when it has none, else one more `allOf` entry, so the check composes with anyOf,
// oneOf and not like any keyword. valijson then reports such a failure as a `pattern`
// violation at the string's pointer. Assumes the keyword policy passed (no keyword beside $ref).
nlohmann::json WithFormatPatterns(const nlohmann::json& schema, Draft draft);

}  // namespace skillnode::discovery::schema

#endif  // SKILLNODE_DISCOVERY_SCHEMA_FORMAT_PATTERNS_H_
