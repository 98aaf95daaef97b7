// JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as MCP uses it: the error codes, the
// shape of one message, and the text of an answer. Pure functions; no transport, no state.
//
// MCP narrows JSON-RPC: a request id is a string or an integer, never null; params, when
// present, are an object. A message that breaks those rules is an invalid request (-32600).
#ifndef SKILLNODE_NODE_MCP_JSON_RPC_H_
#define SKILLNODE_NODE_MCP_JSON_RPC_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace skillnode::node::mcp {

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;

// Arrays and objects nested deeper than this are refused before parsing: every later step
// (copying, dumping for the node's API) is recursive, and a 4 MiB "[[[[..." must not exhaust
// the stack. Real MCP messages and skill inputs nest a handful of levels.
constexpr size_t kJsonDepthMax = 64;

enum class MessageKind { kRequest, kNotification, kResponse, kInvalid };

struct Classified {
  MessageKind kind = MessageKind::kInvalid;
  nlohmann::json id;    // kRequest (and kInvalid when the message had a usable id); else null
  std::string problem;  // kInvalid: what is wrong, for the error's message
};

// What one parsed message is.
Classified Classify(const nlohmann::json& message);

// {"jsonrpc": "2.0", "id": id, "error": {"code", "message"[, "data"]}}.
nlohmann::json ErrorResponse(const nlohmann::json& id, int code, std::string_view message,
                             const nlohmann::json& data = nullptr);
// {"jsonrpc": "2.0", "id": id, "result": result}.
nlohmann::json ResultResponse(const nlohmann::json& id, nlohmann::json result);

// One line of JSON text. Non-ASCII text stays UTF-8 as it is (never \u-escaped, never
// normalised); control characters, CR and LF are escaped as JSON requires, so the text has no
// raw newline and one message is one line. Never throws: a string that is not UTF-8 (none
// should reach here) has its bad bytes replaced by U+FFFD.
std::string Serialize(const nlohmann::json& message);

// Parses one message's text: discarded (is_discarded()) when it is not JSON or nests deeper
// than kJsonDepthMax (measured with node/bounded_json's NestingDepth); `too_deep` says which.
nlohmann::json ParseMessage(std::string_view text, bool& too_deep);

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_JSON_RPC_H_
