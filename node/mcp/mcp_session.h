// McpSession: one MCP client's conversation with skillnode, independent of the transport. The
// stdio transport (mcp_stdio.h) has one; the node's /mcp route (mcp_routes.h) one per
// Mcp-Session-Id. It takes a message's text and answers with the text to send back, or with
// nothing (notifications, responses).
//
// Lifecycle: `initialize` first (anything else but `ping` before it is an invalid request);
// its protocolVersion is answered as it is when supported (kProtocolVersions: those of the
// official TypeScript SDK @modelcontextprotocol/sdk 1.32.2), else with the newest. The server
// declares two capabilities: `tools` (list_skills, get_skill_info, run_skill: skill_tools.h)
// and `logging` (session_log.h). Methods: initialize, ping, tools/list, tools/call,
// logging/setLevel; notifications are taken and never answered (notifications/initialized
// marks the session ready; the rest are ignored).
//
// Log notifications (notifications/message) are sent only once the client has chosen a level
// with logging/setLevel, and only at that level or above; each goes through the `notify` the
// transport passed with the message it belongs to, before that message's answer.
//
// JSON-RPC errors: -32700 text that is not JSON, -32600 not a valid request (or a message
// over kMessageBytesMax, or nested past kJsonDepthMax), -32601 unknown method, -32602 bad
// params (including a tool's arguments and a level MCP does not name), -32603 an internal
// failure. Batches (a JSON array)
// are accepted only when the negotiated version is 2025-03-26, the one revision that has them,
// with at most kBatchItemsMax messages; otherwise a batch is an invalid request.
//
// Answers may come later than HandleText returns (a tool waits for the node); a session
// answers requests in any order, each by its id. Single-threaded.
#ifndef SKILLNODE_NODE_MCP_MCP_SESSION_H_
#define SKILLNODE_NODE_MCP_MCP_SESSION_H_

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "node/mcp/session_log.h"
#include "node/mcp/skill_tools.h"

namespace skillnode::node::mcp {

// The largest message taken, on stdio and as a /mcp body: MCP messages are small; a tool
// input is a skill's JSON input. More is answered -32600 and never held whole.
constexpr size_t kMessageBytesMax = 4 * 1024 * 1024;
// Messages in one batch (2025-03-26 only).
constexpr size_t kBatchItemsMax = 64;

// Newest first, as the SDK's SUPPORTED_PROTOCOL_VERSIONS lists them.
inline constexpr std::array<const char*, 5> kProtocolVersions = {
    "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"};
// The only revision with JSON-RPC batches (added in 2025-03-26, removed in 2025-06-18).
inline constexpr const char* kBatchVersion = "2025-03-26";

bool IsSupportedVersion(std::string_view version);
// "2025-11-25, 2025-06-18, ...": kProtocolVersions for error messages.
std::string SupportedVersions();

struct SessionOptions {
  // stdio: the caller of every message ("Bearer " + --token); /mcp passes one per request.
  CallerInfo caller;
  std::string server_version = "0.1.0";
};

class McpSession {
 public:
  // Gets the answer's text, or nullopt when there is nothing to send.
  using Reply = std::function<void(std::optional<std::string>)>;

  McpSession(SkillTools& tools, SessionOptions options);
  McpSession(const McpSession&) = delete;
  McpSession& operator=(const McpSession&) = delete;

  // One message (or batch) as text. `caller` overrides the session's for this message (/mcp
  // passes each request's Authorization header and peer); nullptr keeps the session's.
  // `notify` takes the log notifications made while it is handled (empty: they are dropped).
  void HandleText(std::string_view text, Reply reply, const CallerInfo* caller = nullptr,
                  SessionLog::Send notify = {});
  // An answer for a message that could not be read whole (over kMessageBytesMax).
  static std::string OversizedAnswer(size_t bytes);

  bool initialized() const { return !protocol_version_.empty(); }
  // The negotiated version; empty before initialize.
  const std::string& protocol_version() const { return protocol_version_; }
  // Whether the client has sent notifications/initialized.
  bool ready() const { return ready_; }
  // The level logging/setLevel chose.
  const SessionLog& log() const { return *log_; }

 private:
  using JsonReply = std::function<void(std::optional<nlohmann::json>)>;
  // Who sent a message and where its log notifications go.
  struct Inbound {
    const CallerInfo& caller;
    const SessionLog::Send& notify;
  };
  void HandleOne(const nlohmann::json& message, const Inbound& from, JsonReply reply);
  void HandleBatch(const nlohmann::json& batch, const Inbound& from, Reply reply);
  void HandleRequest(const std::string& method, const nlohmann::json& id,
                     const nlohmann::json& params, const Inbound& from, JsonReply reply);
  void CallTool(const nlohmann::json& id, const nlohmann::json& params, const Inbound& from,
                JsonReply reply);
  nlohmann::json Initialize(const nlohmann::json& id, const nlohmann::json& params);
  nlohmann::json SetLevel(const nlohmann::json& id, const nlohmann::json& params);

  SkillTools& tools_;
  SessionOptions options_;
  std::string protocol_version_;
  bool ready_ = false;
  std::shared_ptr<NameMemory> names_ = std::make_shared<NameMemory>();
  // Shared with the tool calls in flight (which may outlive the session on /mcp).
  std::shared_ptr<SessionLog> log_ = std::make_shared<SessionLog>();
};

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_MCP_SESSION_H_
