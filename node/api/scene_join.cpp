// SceneJoin (scene_join.h): POST /api/scenes/{scene}/join, its body and its answer.
#include "node/api/scene_join.h"

#include <cassert>
#include <utility>

#include "discovery/connection_info.h"
#include "node/skill_answers.h"

namespace skillnode::node::api {

using discovery::FieldError;
using nlohmann::json;

discovery::Parsed<discovery::SkillQuery> SceneJoinQuery(const std::string& scene,
                                                        const json& body) {
  discovery::SkillQuery query;
  query.scenes = {scene};
  query.status = kademlia::store::SkillStatus::kHealthy;
  for (const auto& [key, value] : body.items()) {
    if (key == "capabilities") {
      if (!value.is_array()) {
        return tl::unexpected(FieldError{"capabilities", "must be an array of strings"});
      }
      for (size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_string()) {
          return tl::unexpected(
              FieldError{"capabilities[" + std::to_string(i) + "]", "must be a string"});
        }
        query.capabilities.push_back(value[i].get<std::string>());
      }
    } else if (key != "requesterId") {
      return tl::unexpected(FieldError{key, "is not a known field"});
    }
  }
  return query;
}

json SceneJoinJson(const std::string& scene, const discovery::search::SearchResult& result) {
  assert(!result.skills.empty() && "a scene is joined through a skill found");
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
  return {{"joined", true},
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
          {"source", discovery::SourceName(result.skills.front().source)}};
}

SceneJoin::SceneJoin(Daemon& daemon, discovery::search::Searcher& searcher,
                     auth::Authenticator& auth)
    : daemon_(daemon), searcher_(searcher), auth_(auth) {}

void SceneJoin::AddRoutes(http::Router& router) {
  router.Add("POST", "/api/scenes/{scene}/join",
             [this](const http::HttpRequest& request, http::Responder responder) {
               Handle(request, std::move(responder));
             });
}

void SceneJoin::Handle(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  const std::string scene = *request.Param("scene");
  auto body = discovery::ParseJsonObject(request.body.empty() ? "{}" : request.body);
  if (!body) return BadField(responder, body.error(), "BAD_REQUEST");
  auto query = SceneJoinQuery(scene, *body);
  if (!query) return BadField(responder, query.error(), "BAD_REQUEST");
  searcher_.Search(
      daemon_.Now(), *query, discovery::search::SearchOptions{},
      [responder, context, scene,
       capabilities = query->capabilities](discovery::search::SearchResult result) mutable {
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
        responder.Json(200, SceneJoinJson(scene, result));
      });
}

}  // namespace skillnode::node::api
