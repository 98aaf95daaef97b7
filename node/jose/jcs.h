// The JSON Canonicalization Scheme (RFC 8785) over nlohmann::json: the one byte string a JSON
// value signs as. Object members sorted by their names' UTF-16 code units, no white space,
// strings escaped as ECMAScript's JSON.stringify escapes them, numbers in ES6 form
// (es6_number.h). JWS payloads of A2A cards (and of the other agent formats' signatures) are
// these bytes. Pure.
#ifndef SKILLNODE_NODE_JOSE_JCS_H_
#define SKILLNODE_NODE_JOSE_JCS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "transport/result.h"

namespace skillnode::node::jose {

// Arrays and objects nested deeper than this are refused (the writer recurses).
constexpr size_t kJcsDepthMax = 128;

// kInvalidArgument naming the problem and where (a JSON Pointer) for: a string or member name
// that is not UTF-8, a number with no exact JSON form (NaN, infinities, integers that are not
// exactly doubles), binary values, and nesting past kJcsDepthMax.
[[nodiscard]] transport::Result<std::string> CanonicalJson(const nlohmann::json& value);

// `text` as a JSON string literal the way JSON.stringify writes it: '"' and '\' escaped,
// \b \f \n \r \t, other characters below U+0020 as \u00xx (lower-case hex), all else as it is.
// kInvalidArgument when `text` is not UTF-8.
[[nodiscard]] transport::Result<std::string> JsonStringLiteral(std::string_view text);

}  // namespace skillnode::node::jose

#endif  // SKILLNODE_NODE_JOSE_JCS_H_
