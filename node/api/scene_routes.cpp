// POST /api/scenes/{scene}/join: the best healthy skill of a scene that offers every requested
// capability, as the seed's §4.3 SceneJoinResult with its connection info. A private skill is
// chosen only for a request with a valid bearer token (docs/access.md).
#include "discovery/connection_info.h"
#include "node/skill_service.h"

namespace skillnode::node {

using discovery::SkillQuery;
using nlohmann::json;

void SkillService::HandleSceneJoin(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  const std::string scene = *request.Param("scene");
  auto body = discovery::ParseJsonObject(request.body.empty() ? "{}" : request.body);
  if (!body) return BadField(responder, body.error(), "BAD_REQUEST");
  SkillQuery query;
  query.scenes = {scene};
  query.status = kademlia::store::SkillStatus::kHealthy;
  for (const auto& [key, value] : body->items()) {
    if (key == "capabilities") {
      if (!value.is_array()) {
        return responder.Error(400, "BAD_REQUEST", "capabilities: must be an array of strings",
                               {{"field", "capabilities"}});
      }
      for (size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_string()) {
          const std::string field = "capabilities[" + std::to_string(i) + "]";
          return responder.Error(400, "BAD_REQUEST", field + ": must be a string",
                                 {{"field", field}});
        }
        query.capabilities.push_back(value[i].get<std::string>());
      }
    } else if (key != "requesterId") {
      return responder.Error(400, "BAD_REQUEST", key + ": is not a known field", {{"field", key}});
    }
  }
  searcher_.Search(
      daemon_.Now(), query, discovery::search::SearchOptions{},
      [responder, context, scene,
       capabilities = query.capabilities](discovery::search::SearchResult result) mutable {
        HidePrivate(result, context);
        if (result.error && result.error != discovery::search::DiscError::kNoSkills) {
          return DiscoveryError(responder, result);
        }
        if (result.skills.empty()) {
          return responder.Error(
              404, "SCENE_NOT_FOUND",
              "no healthy skill of scene " + scene + " offers every requested capability",
              {{"code", "DISC_002"}, {"scene", scene}, {"capabilities", capabilities}});
        }
        const kademlia::store::SkillRecord& chosen = result.skills.front().record();
        json connection = {{"endpoint", chosen.endpoint}};
        if (auto info = discovery::ParseEndpoint(chosen.endpoint)) {
          connection = {{"protocol", info->protocol},
                        {"host", info->host},
                        {"port", info->port},
                        {"basePath", info->base_path},
                        {"endpoint", chosen.endpoint}};
        }
        const std::string provider = kademlia::NodeIdOf(chosen.publisher).ToHex();
        json members = json::array();
        for (const auto& found : result.skills) {
          members.push_back({{"skillId", found.record().skill_id},
                             {"agentId", found.record().agent_id},
                             {"endpoint", found.record().endpoint}});
        }
        responder.Json(200, {{"joined", true},
                             {"sceneId", scene},
                             {"groupId", "group-" + scene},
                             {"connectionInfo", std::move(connection)},
                             {"skillInfo",
                              {{"skillId", chosen.skill_id},
                               {"agentId", chosen.agent_id},
                               {"version", chosen.version},
                               {"capabilities", chosen.capabilities},
                               {"status", kademlia::store::SkillStatusName(chosen.status)},
                               {"provider", provider}}},
                             {"members", std::move(members)},
                             {"source", discovery::SourceName(result.skills.front().source)}});
      });
}

}  // namespace skillnode::node
