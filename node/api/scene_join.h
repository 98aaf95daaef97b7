// SceneJoin: POST /api/scenes/{scene}/join with a body {capabilities, requesterId} (both
// optional): the best healthy skill of the scene that offers every requested capability, as
// the seed's §4.3 SceneJoinResult with its connection info and the scene's other members.
//
// The request is admitted through the Authenticator; a private skill is chosen only for a
// request with a valid bearer token (docs/access.md). A bad body is a 400 BAD_REQUEST naming
// the field; no such skill a 404 SCENE_NOT_FOUND (code DISC_002); a failed search its DISC_00x
// error (skill_answers.h).
//
// The body's reading and the answer's shape are pure functions (unit-tested without a node).
// The class holds references to the daemon, searcher and authenticator, which must outlive it.
// Loop thread only.
#ifndef SKILLNODE_NODE_API_SCENE_JOIN_H_
#define SKILLNODE_NODE_API_SCENE_JOIN_H_

#include <nlohmann/json.hpp>
#include <string>

#include "discovery/query.h"
#include "discovery/search/searcher.h"
#include "discovery/skill_json.h"
#include "node/auth/authenticator.h"
#include "node/daemon.h"
#include "node/http/http_message.h"
#include "node/http/responder.h"
#include "node/http/router.h"

namespace skillnode::node::api {

// The search of a join: the healthy skills of `scene` with every capability the body asks for.
// The body (a JSON object) may hold "capabilities" (an array of strings) and "requesterId"
// (ignored); any other field is refused.
[[nodiscard]] discovery::Parsed<discovery::SkillQuery> SceneJoinQuery(const std::string& scene,
                                                                      const nlohmann::json& body);

// The SceneJoinResult of a search that found skills (`result` holds at least one): the first
// skill joined, with its connection info parsed from its endpoint where possible, every skill
// found as a member, and the source that found the chosen one.
nlohmann::json SceneJoinJson(const std::string& scene,
                             const discovery::search::SearchResult& result);

class SceneJoin {
 public:
  // Every reference must outlive this.
  SceneJoin(Daemon& daemon, discovery::search::Searcher& searcher, auth::Authenticator& auth);
  SceneJoin(const SceneJoin&) = delete;
  SceneJoin& operator=(const SceneJoin&) = delete;

  // Adds POST /api/scenes/{scene}/join to `router`; once.
  void AddRoutes(http::Router& router);

 private:
  void Handle(const http::HttpRequest& request, http::Responder responder);

  Daemon& daemon_;
  discovery::search::Searcher& searcher_;
  auth::Authenticator& auth_;
};

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_SCENE_JOIN_H_
