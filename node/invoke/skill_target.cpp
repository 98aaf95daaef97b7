#include "node/invoke/skill_target.h"

namespace skillnode::node::invoke {
namespace {

using nlohmann::json;

InvokeError NodeAnswer(std::string message) {
  return InvokeError{
      InvokeErrorKind::kProtocol, "the node's answer " + std::move(message), std::nullopt, {}};
}

// A schema kept as JSON text: an object or boolean schema as compact JSON, a string as it is.
Checked<std::string> SchemaText(const json& provider, const char* key) {
  const auto it = provider.find(key);
  if (it == provider.end() || it->is_null()) return std::string();
  if (it->is_object() || it->is_boolean()) return it->dump();
  if (it->is_string()) return it->get<std::string>();
  return tl::unexpected(NodeAnswer(std::string("has an ") + key + " that is not a schema"));
}

}  // namespace

Checked<InvokeTarget> TargetFromSkillJson(const json& skill,
                                          const std::optional<std::string>& agent_id,
                                          const std::string& token) {
  if (!skill.is_object()) return tl::unexpected(NodeAnswer("is not a JSON object"));
  json providers = json::array({skill});
  if (auto it = skill.find("providers"); it != skill.end()) {
    if (!it->is_array() || it->empty()) {
      return tl::unexpected(NodeAnswer("has no providers (a non-empty array)"));
    }
    providers = *it;
  }
  const json* chosen = nullptr;
  std::string agents;
  for (const json& provider : providers) {
    if (!provider.is_object())
      return tl::unexpected(NodeAnswer("has a provider that is not an object"));
    const std::string agent = provider.value("agentId", std::string());
    agents += (agents.empty() ? "" : ", ") + agent;
    if (chosen == nullptr && (!agent_id || agent == *agent_id)) chosen = &provider;
  }
  const std::string skill_id = skill.value("id", skill.value("skillId", std::string()));
  if (chosen == nullptr) {
    return tl::unexpected(InvokeError{InvokeErrorKind::kNotFound,
                                      "skill " + skill_id + " has no provider with agentId " +
                                          *agent_id + " (its providers: " + agents + ")",
                                      std::nullopt,
                                      {}});
  }
  const json& provider = *chosen;
  InvokeTarget target;
  target.skill_id = provider.value("skillId", skill_id);
  target.agent_id = provider.value("agentId", std::string());
  const auto endpoint = provider.find("endpoint");
  if (endpoint == provider.end() || !endpoint->is_string()) {
    return tl::unexpected(NodeAnswer("has a provider without an endpoint"));
  }
  target.endpoint = endpoint->get<std::string>();
  if (auto access = provider.find("access"); access != provider.end() && access->is_string()) {
    target.access = access->get<std::string>();
  }
  auto input_schema = SchemaText(provider, "inputSchema");
  if (!input_schema) return tl::unexpected(input_schema.error());
  auto output_schema = SchemaText(provider, "outputSchema");
  if (!output_schema) return tl::unexpected(output_schema.error());
  target.input_schema = std::move(*input_schema);
  target.output_schema = std::move(*output_schema);
  target.token = token;
  return target;
}

}  // namespace skillnode::node::invoke
