// UTF-8 well-formedness, for text the node takes from a request or a skill's answer and must
// pass on as JSON (which needs UTF-8): the MCP tools' outputs, the search routes' `q`. Pure.
#ifndef SKILLNODE_NODE_UTF8_TEXT_H_
#define SKILLNODE_NODE_UTF8_TEXT_H_

#include <string_view>

namespace skillnode::node {

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool IsUtf8(std::string_view text);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_UTF8_TEXT_H_
