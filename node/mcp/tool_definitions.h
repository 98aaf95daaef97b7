// The three MCP tools of the Skill Usage Protocol (docs/mcp.md, docs/api.md "MCP") as
// tools/list shows them, and the checks of their arguments.
//
//   list_skills(query?, capability?, scene?, limit?)  selection: name + description only;
//                                                      query is the word search's q
//   get_skill_info(name)                               usage: the complete SKILL.md
//   run_skill(name, input)                             execution
//
// The input schemas are fixed and generic. No tool ever carries a skill's own input schema:
// the model learns a skill's input from its SKILL.md (get_skill_info), as the protocol says.
#ifndef SKILLNODE_NODE_MCP_TOOL_DEFINITIONS_H_
#define SKILLNODE_NODE_MCP_TOOL_DEFINITIONS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "node/api/query_text.h"

namespace skillnode::node::mcp {

// list_skills answers at most this many skills per call (the schema's maximum), and this
// many when `limit` is not given: a selection list an LLM can read in one go.
constexpr size_t kListLimitMax = 100;
constexpr size_t kListLimitDefault = 20;
// Longest query, capability, scene and name accepted (a skill name is at most 64 characters,
// an id or capability at most 128; the rest is room).
constexpr size_t kToolTextMax = 256;
// Words of a list_skills query: the search routes' limit on `q`, which the query becomes.
constexpr size_t kQueryWordsMax = api::kQueryWordsMax;
static_assert(kToolTextMax == api::kQueryTextBytesMax, "a query is a q: the same byte limit");

inline constexpr const char* kListSkills = "list_skills";
inline constexpr const char* kGetSkillInfo = "get_skill_info";
inline constexpr const char* kRunSkill = "run_skill";

// The "tools" array of a tools/list result: exactly the three tools.
nlohmann::json ToolDefinitions();

struct ListArgs {
  std::string text;  // the query: the node's free-text word search (q); empty: none
  std::optional<std::string> capability;
  std::optional<std::string> scene;
  size_t limit = kListLimitDefault;
};
struct NameArgs {
  std::string name;
};
struct RunArgs {
  std::string name;
  nlohmann::json input;
};

// Each checks `arguments` (a tools/call's "arguments", null when absent) against its tool's
// schema; the error names the argument and the reason (an invalid-params error).
[[nodiscard]] tl::expected<ListArgs, std::string> ParseListArgs(const nlohmann::json& arguments);
[[nodiscard]] tl::expected<NameArgs, std::string> ParseNameArgs(const nlohmann::json& arguments);
[[nodiscard]] tl::expected<RunArgs, std::string> ParseRunArgs(const nlohmann::json& arguments);

}  // namespace skillnode::node::mcp

#endif  // SKILLNODE_NODE_MCP_TOOL_DEFINITIONS_H_
