// ImportReport's API form (import_report.h).
#include "node/importers/import_report.h"

namespace skillnode::node::importers {

nlohmann::json ImportReport::ToJson() const {
  nlohmann::json imported_json = nlohmann::json::array();
  for (const ImportedSkill& skill : imported) {
    imported_json.push_back({{"entry", skill.entry},
                             {"agentId", skill.agent_id},
                             {"skillId", skill.skill_id},
                             {"version", skill.version},
                             {"result", skill.result}});
  }
  nlohmann::json unpublished_json = nlohmann::json::array();
  for (const UnpublishedSkill& skill : unpublished) {
    unpublished_json.push_back(
        {{"agentId", skill.agent_id}, {"skillId", skill.skill_id}, {"reason", skill.reason}});
  }
  nlohmann::json errors_json = nlohmann::json::array();
  for (const EntryError& failed : errors) {
    errors_json.push_back({{"entry", failed.entry}, {"error", failed.error}});
  }
  nlohmann::json out = {{"source", source},          {"type", type},
                        {"imported", imported_json}, {"unpublished", unpublished_json},
                        {"errors", errors_json},     {"documents", documents}};
  if (!id.empty()) out["id"] = id;
  if (error) out["error"] = error->message;
  return out;
}

}  // namespace skillnode::node::importers
