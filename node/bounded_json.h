// Bounded JSON parsing for text from outside the node (HTTP bodies, imported documents,
// JSON-RPC messages): the nesting is measured on the text before anything is built, so a deep
// document is refused without building (and later recursively destroying) a deep tree.
#ifndef SKILLNODE_NODE_BOUNDED_JSON_H_
#define SKILLNODE_NODE_BOUNDED_JSON_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

#include "transport/result.h"

namespace skillnode::node {

// The deepest nesting of arrays and objects in `text` (brackets inside strings not counted),
// stopping early once past `limit`.
size_t NestingDepth(std::string_view text, size_t limit);

// `text` parsed, or an error that names `what` ("the card", "page 3") and says whether it is
// not JSON or nests deeper than `depth_max`.
[[nodiscard]] transport::Result<nlohmann::json> ParseBoundedJson(std::string_view text,
                                                                 size_t depth_max,
                                                                 std::string_view what);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_BOUNDED_JSON_H_
