// SkillService: the skill registry on a running node — the Registry (skills registered with
// this node), the Searcher (discovery through local, cache and DHT), and their HTTP routes:
//
//   POST   /api/skills                         register (the seed's SKILL_REGISTER fields)
//   POST   /api/skills/{skillId}/heartbeat     {agentId, status}
//   DELETE /api/skills/{skillId}?agentId=&reason=
//   GET    /api/skills?capability=&scene=&type=&keyword=&version=&agentId=&status=&limit=&offset=
//   POST   /api/skills/search                  {capabilities, scenes, types, keywords, version}
//   GET    /api/skills/{id}                    the skill with each provider
//   POST   /api/skills/folder?...              register from a SKILL.md folder (a tar body)
//   GET    /api/skills/{id}/skill.md           the skill's SKILL.md, byte for byte
//   GET    /api/skills/{id}/download           the skill's folder as its deterministic archive
//   POST   /api/scenes/{scene}/join            {capabilities}: the §4.3 SceneJoinResult
//   POST   /api/cache/refresh                  drop every cached answer
//   GET    /api/v1/watch?scene=|capability=|skill=   Server-Sent Events: added, changed and
//                                              removed skills under that DHT key
// and, through api::WellKnownRoutes, skill-sharing §5's /.well-known/skill-sharing,
// /skills/{id}/descriptor.json and /skills?type=. The SKILL.md folder routes are
// api::SkillFolderRoutes' (node/api/skill_folder_routes.h).
//
// Access levels (docs/access.md): every read route admits the request through the
// Authenticator first (a bad bearer token is answered 401, a source past its failure limit
// 429); without a valid token no private skill appears in any answer (GET by id answers 404 as
// for an unknown skill). Authenticated watch streams also carry this node's private skills,
// which never reach the DHT that feeds the others.
//
// Registration, heartbeats and unregistration are accepted only from this host (a skill
// registers with the node on its own host; docs/architecture.md "Registration, health and the
// LAN"); from anywhere else they are answered UNAUTHORIZED. At shutdown every registration is
// unpublished with a tombstone (reason SHUTDOWN). docs/api.md documents every route with its
// errors.
#ifndef SKILLNODE_NODE_SKILL_SERVICE_H_
#define SKILLNODE_NODE_SKILL_SERVICE_H_

#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "discovery/registry.h"
#include "discovery/search/searcher.h"
#include "node/api/skill_folder_routes.h"
#include "node/api/well_known_routes.h"
#include "node/auth/authenticator.h"
#include "node/daemon.h"

namespace skillnode::node {

// Skills one page of GET /api/skills holds by default and at most.
constexpr size_t kPageLimitDefault = 100;
constexpr size_t kPageLimitMax = 1000;

class SkillService {
 public:
  // Attaches to `daemon` (routes, timers, metrics, node info, shutdown step). `daemon` must
  // outlive the service; create it between Daemon::Create() and Run().
  // `publisher_certificate` (DER, may be empty) goes into every record this node publishes.
  explicit SkillService(Daemon& daemon, std::vector<uint8_t> publisher_certificate = {});
  SkillService(const SkillService&) = delete;
  SkillService& operator=(const SkillService&) = delete;

  discovery::Registry& registry() { return registry_; }
  discovery::search::Searcher& searcher() { return searcher_; }
  // Bearer tokens: routes that show or invoke restricted and private skills ask it who the
  // request is (Admit / Require / Authenticated).
  auth::Authenticator& authenticator() { return auth_; }

 private:
  void AddRoutes();
  void HandleRegister(const http::HttpRequest& request, http::Responder responder);
  void HandleHeartbeat(const http::HttpRequest& request, http::Responder responder);
  void HandleUnregister(const http::HttpRequest& request, http::Responder responder);
  void HandleList(const http::HttpRequest& request, http::Responder responder);
  void HandleSearch(const http::HttpRequest& request, http::Responder responder);
  void HandleGetSkill(const http::HttpRequest& request, http::Responder responder);
  void HandleSceneJoin(const http::HttpRequest& request, http::Responder responder);
  void HandleWatch(const http::HttpRequest& request, http::Responder responder);
  // Authenticated watch streams: this node's private skills under the watched key, fed by
  // the registry (the DHT never carries them).
  struct PrivateWatch {
    std::string kind;  // scene, capability, skill
    std::string value;
    std::shared_ptr<http::EventStream> stream;
  };
  void WatchPrivate(const std::string& kind, const std::string& value,
                    const std::shared_ptr<http::EventStream>& stream);
  void NotifyPrivateWatchers(const discovery::RegistryEvent& event);
  // False (and answered UNAUTHORIZED) when the request does not come from this host.
  bool FromThisHost(const http::HttpRequest& request, http::Responder& responder,
                    std::string_view what);
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  auth::Authenticator auth_;
  discovery::Registry registry_;
  discovery::search::Searcher searcher_;
  api::WellKnownRoutes well_known_;
  api::SkillFolderRoutes folders_;
  std::map<uint64_t, PrivateWatch> private_watches_;
  uint64_t next_private_watch_ = 1;
};

// True when `request` comes from this node's host; else answers UNAUTHORIZED (403) naming
// `what` ("registration") and returns false.
bool RequestFromThisHost(const http::HttpRequest& request, http::Responder& responder,
                         std::string_view what);

// Answers a FieldError: 400 with `code` and the field named.
void BadField(http::Responder& responder, const discovery::FieldError& error,
              std::string_view code);
// Answers a registration's outcome: 400 INVALID naming the field, or 201 (new) / 200 with the
// status, ids, message, timestamp and the skill's JSON, plus `extra` fields. True when the
// registration was accepted.
bool AnswerRegistration(http::Responder& responder, const discovery::RegisterOutcome& outcome,
                        const nlohmann::json& extra = nlohmann::json::object());
// Answers a failed search with its DISC_00x code and the stages it went through.
void DiscoveryError(http::Responder& responder, const discovery::search::SearchResult& result);

// Drops the private skills a request without a valid token may not see; a result that was
// only private skills becomes "no skills" (DISC_002), as if they did not exist.
void HidePrivate(discovery::search::SearchResult& result, const auth::AuthContext& context);
// `result` as `context` may see it: itself when it holds nothing hidden from it, else a copy
// (in `copy`) with HidePrivate applied.
const discovery::search::SearchResult& Visible(
    const discovery::search::SearchResult& result, const auth::AuthContext& context,
    std::optional<discovery::search::SearchResult>& copy);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_SKILL_SERVICE_H_
