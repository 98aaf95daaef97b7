// SessionLog: MCP's logging utility for one session (the `logging` capability): the level the
// client chose with logging/setLevel, and the one place the server's notifications/message
// are made and filtered by that level. McpSession owns one per session (shared with the tool
// calls in flight, so a level set while a call runs applies to the rest of that call).
//
// Levels are MCP's (RFC 5424's): debug < info < notice < warning < error < critical < alert
// < emergency. Until the client sends logging/setLevel the session sends no log notifications
// at all: a client that never asks gets exactly the messages it got before logging existed.
// Where a notification goes (a line on stdio, an event of one /mcp answer's stream) is the
// caller's `Send`. Single-threaded.
#ifndef SKILLNODE_NODE_MCP_SESSION_LOG_H_
#define SKILLNODE_NODE_MCP_SESSION_LOG_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace skillnode::node::mcp {

enum class LogLevel { kDebug, kInfo, kNotice, kWarning, kError, kCritical, kAlert, kEmergency };

// MCP's name of the level ("warning").
const char* LogLevelName(LogLevel level);
// The level MCP names `name`; nullopt for any other text (names are lower case, exact).
std::optional<LogLevel> ParseLogLevel(std::string_view name);
// "debug, info, notice, warning, error, critical, alert, emergency", for error messages.
std::string LogLevelNames();

class SessionLog {
 public:
  // Sends one notification's JSON-RPC text.
  using Send = std::function<void(std::string text)>;

  void SetLevel(LogLevel level) { level_ = level; }
  // nullopt until the client has set one.
  std::optional<LogLevel> level() const { return level_; }
  // Whether a message at `level` reaches the client.
  bool Passes(LogLevel level) const { return level_.has_value() && level >= *level_; }

  // Sends {"method": "notifications/message", "params": {level, logger, data}} through `send`
  // when `level` passes; otherwise sends nothing. `send` may be empty (nowhere to send).
  void Write(LogLevel level, std::string_view logger, nlohmann::json data, const Send& send) const;

 private:
  std::optional<LogLevel> level_;
};

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_SESSION_LOG_H_
