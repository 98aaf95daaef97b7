// The InvokeTarget of a skill as a node's HTTP API shows it (GET /api/skills/{id}: the skill
// with its "providers", each a SkillJson object with "endpoint", "access", "inputSchema" and
// "outputSchema"). Used by `skillnode invoke`; pure, so tests call it directly.
#ifndef SKILLNODE_NODE_INVOKE_SKILL_TARGET_H_
#define SKILLNODE_NODE_INVOKE_SKILL_TARGET_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "node/invoke/invoke_protocol.h"
#include "node/invoke/invoke_types.h"

namespace skillnode::node::invoke {

// The provider whose agentId is `agent_id` (kNotFound naming the providers there are when none
// is), else the first one: the node lists them best first (health, then freshness). A skill
// object without "providers" is its own one provider. Missing or mistyped fields: kProtocol.
[[nodiscard]] Checked<InvokeTarget> TargetFromSkillJson(const nlohmann::json& skill,
                                                        const std::optional<std::string>& agent_id,
                                                        const std::string& token);

}  // namespace skillnode::node::invoke

#endif  // SKILLNODE_NODE_INVOKE_SKILL_TARGET_H_
