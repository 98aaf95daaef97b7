// SkillTools: runs the three MCP tools (tool_definitions.h) against a node's HTTP API
// (node_api.h), the same way for stdio and for /mcp.
//
//   list_skills     POST /api/skills/search: the node's discovery (its own skills, the LAN, the
//                   DHT, its cache). Each skill is shown as {"name", "description"} and nothing
//                   else; one entry per name, the best-ranked skill holding it.
//   get_skill_info  the name resolved to a skill id, then GET /api/skills/{id}/skill.md: its
//                   bytes as the text, unmodified.
//   run_skill       the name resolved, then POST /api/skills/{id}/invoke {"input"}.
//
// Names: a name list_skills showed resolves to the skill it showed (remembered per session in
// NameMemory); otherwise to the best-ranked skill whose name is exactly `name` among those the
// node's keyword search finds, else to the skill whose id is `name`.
//
// The caller's Authorization header goes with every request, so private skills appear only
// with a valid token, exactly as in the node's own routes. Failures of a tool (an unknown
// name, a skill without SKILL.md, a node that refuses, a skill that fails) are tool results
// with isError: true and the reason; bad arguments are invalid-params errors.
//
// Log notifications (through CallContext::Log, filtered by the session's level; logger: the
// tool's name; data: {"message", ...details}):
//   debug    how a name was resolved to a skill id; what a search found
//   info     a SKILL.md read; a skill that ran
//   notice   a name no skill holds
//   warning  the node refused or failed a lookup, a read or a run (a skill that failed, a
//            lookup or an invocation that timed out: "timedOut": true)
//   error    the node cannot be reached at all
#ifndef SKILLNODE_NODE_MCP_SKILL_TOOLS_H_
#define SKILLNODE_NODE_MCP_SKILL_TOOLS_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>

#include "node/mcp/node_api.h"
#include "node/mcp/session_log.h"
#include "node/mcp/tool_definitions.h"

namespace skillnode::node::mcp {

// Names a session remembers from its list_skills answers (the oldest forgotten first).
constexpr size_t kNamesRememberedMax = 1024;

// name -> skill id, as a session's list_skills answers showed them.
class NameMemory {
 public:
  void Remember(const std::string& name, const std::string& id);
  std::optional<std::string> Find(const std::string& name) const;
  size_t size() const { return ids_.size(); }

 private:
  std::map<std::string, std::string> ids_;
  std::deque<std::string> order_;
};

// Who is calling, as the transport knows it.
struct CallerInfo {
  std::string authorization;  // sent with every request to the node; empty: anonymous
  transport::Endpoint peer;   // /mcp: the client's address; stdio: unset
  // run_skill's "timeoutMs" for the node; empty (or nullopt): the node's own default.
  std::function<std::optional<int64_t>()> run_timeout_ms;
};

// One tools/call's circumstances.
struct CallContext {
  CallerInfo caller;
  std::shared_ptr<NameMemory> names;
  // The session's log and where this call's notifications go; no log: nothing is sent.
  std::shared_ptr<const SessionLog> log;
  SessionLog::Send notify;

  // A log notification from tool `tool`, when the session's level lets it through.
  void Log(LogLevel level, std::string_view tool, nlohmann::json data) const;
};

struct ToolCallError {
  int code = 0;  // a JSON-RPC error code (kInvalidParams)
  std::string message;
};
using ToolCallResult = tl::expected<nlohmann::json, ToolCallError>;
using ToolCallDone = std::function<void(ToolCallResult)>;

// A tool result: {"content": [{"type": "text", "text": text}], "isError": is_error}.
nlohmann::json TextResult(std::string text, bool is_error);

class SkillTools {
 public:
  explicit SkillTools(ApiFetch fetch) : fetch_(std::move(fetch)) {}
  SkillTools(const SkillTools&) = delete;
  SkillTools& operator=(const SkillTools&) = delete;

  // Runs tool `name`; `done` gets the CallToolResult or an invalid-params error. It runs
  // exactly once, at once or later (as the fetch answers).
  void Call(const std::string& name, const nlohmann::json& arguments, const CallContext& context,
            ToolCallDone done);

 private:
  using Resolved = std::function<void(tl::expected<std::string, std::string>)>;
  void ListSkills(const ListArgs& args, const CallContext& context, ToolCallDone done);
  void GetSkillInfo(const std::string& name, const CallContext& context, ToolCallDone done);
  void RunSkill(RunArgs args, const CallContext& context, ToolCallDone done);
  // `tool`: the tool asking, for the log.
  void Resolve(const std::string& name, const char* tool, const CallContext& context,
               Resolved done);
  void ResolveById(const std::string& name, const char* tool, const CallContext& context,
                   Resolved done);
  void Search(nlohmann::json query, const char* tool, const CallContext& context,
              std::function<void(tl::expected<nlohmann::json, std::string>)> done);

  ApiFetch fetch_;
};

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_SKILL_TOOLS_H_
