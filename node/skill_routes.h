// SkillRoutes: the registry's /api/skills routes on a node (docs/api.md "Skills"):
//
//   POST   /api/skills                         register (the seed's SKILL_REGISTER fields)
//   POST   /api/skills/{skillId}/heartbeat     {agentId, status}
//   DELETE /api/skills/{skillId}?agentId=&reason=
//   GET    /api/skills?capability=&scene=&type=&keyword=&version=&agentId=&status=&limit=&offset=
//          &fresh=&lan=&skillcenter=
//   POST   /api/skills/search                  {capabilities, scenes, types, keywords, version,
//                                               limit, offset, fresh, lan, skillcenter}
//   GET    /api/skills/{id}                    the skill with each provider
//   POST   /api/cache/refresh                  drop every cached answer
//
// Registration, heartbeats and unregistration are accepted only from this host (403
// UNAUTHORIZED otherwise); the reads admit the request through the Authenticator and show
// private skills only to a valid token (skill_answers.h). A refused field is a 400 naming it.
//
// The requests' fields are read by the pure functions below (unit-tested without a node); the
// class holds references to the registry, searcher and authenticator SkillService owns, which
// must outlive it. Loop thread only.
#ifndef SKILLNODE_NODE_SKILL_ROUTES_H_
#define SKILLNODE_NODE_SKILL_ROUTES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "discovery/skill_json.h"
#include "kademlia/store/record/skill_record.h"
#include "node/auth/authenticator.h"
#include "node/daemon.h"
#include "node/http/http_message.h"
#include "node/http/responder.h"
#include "node/http/router.h"
#include "node/publisher/publisher_domains.h"

namespace skillnode::node {

// Skills one page of GET /api/skills holds by default and at most.
constexpr size_t kPageLimitDefault = 100;
constexpr size_t kPageLimitMax = 1000;
// The largest offset a page may start at.
constexpr size_t kPageOffsetMax = SIZE_MAX / 2;

// Which page of a search's skills to answer, and which stages the search may use.
struct SearchPage {
  size_t limit = kPageLimitDefault;
  size_t offset = 0;
  discovery::search::SearchOptions options;
};
// GET /api/skills's limit= and offset= (integers up to kPageLimitMax and kPageOffsetMax) and
// fresh=true, lan=false, skillcenter=false (any other value keeps the default).
[[nodiscard]] discovery::Parsed<SearchPage> PageFromParams(const http::HttpRequest& request);
// POST /api/skills/search's limit and offset (unsigned integers within the same limits) and
// fresh, lan, skillcenter (booleans), each optional.
[[nodiscard]] discovery::Parsed<SearchPage> PageFromJson(const nlohmann::json& body);

// A heartbeat's body: agentId (required, a non-empty string), status (a skill status, HEALTHY
// when absent or null) and timestamp (ignored); no other field.
struct HeartbeatFields {
  std::string agent_id;
  kademlia::store::SkillStatus status = kademlia::store::SkillStatus::kHealthy;
};
[[nodiscard]] discovery::Parsed<HeartbeatFields> HeartbeatFromJson(const nlohmann::json& body);

// An unregistration's query: agentId (required, non-empty) and reason (SHUTDOWN when absent).
struct UnregisterFields {
  std::string agent_id;
  kademlia::store::UnregisterReason reason = kademlia::store::UnregisterReason::kShutdown;
};
[[nodiscard]] discovery::Parsed<UnregisterFields> UnregisterFromParams(
    const http::HttpRequest& request);

// The publisher domains a record claims with their states, as a skill answer shows them
// (publisher::PublisherDomains::ClaimsJson); unset: answers show none.
using DomainClaimsOf = std::function<nlohmann::json(const kademlia::store::SkillRecord&)>;

// A page of a search's skills as the API answers it, serialised from each skill's cached JSON
// text: {"limit", "offset" (when `paged`), "skills", "sources", "stages", "total"}, the keys in
// the order the API's other answers use (sorted). A skill whose record claims publisher domains
// also has "publisherDomains" (`claims`), last.
std::string PageJson(const discovery::search::SearchResult& result, size_t offset, size_t limit,
                     bool paged, const DomainClaimsOf& claims = {});
// GET /api/skills/{id}'s answer: the best skill found, its id, every provider and the sources;
// the skill and each provider with "publisherDomains" when its record claims any.
// `result` holds at least one skill.
nlohmann::json SkillWithProviders(const std::string& id,
                                  const discovery::search::SearchResult& result,
                                  const DomainClaimsOf& claims = {});

class SkillRoutes {
 public:
  // Every reference must outlive this.
  SkillRoutes(Daemon& daemon, discovery::Registry& registry, discovery::search::Searcher& searcher,
              auth::Authenticator& auth, publisher::PublisherDomains& domains);
  SkillRoutes(const SkillRoutes&) = delete;
  SkillRoutes& operator=(const SkillRoutes&) = delete;

  // Adds the routes listed above to `router`; once.
  void AddRoutes(http::Router& router);

 private:
  void HandleRegister(const http::HttpRequest& request, http::Responder responder);
  void HandleHeartbeat(const http::HttpRequest& request, http::Responder responder);
  void HandleUnregister(const http::HttpRequest& request, http::Responder responder);
  void HandleList(const http::HttpRequest& request, http::Responder responder);
  void HandleSearch(const http::HttpRequest& request, http::Responder responder);
  void HandleGetSkill(const http::HttpRequest& request, http::Responder responder);
  void HandleCacheRefresh(const http::HttpRequest& request, http::Responder responder);

  Daemon& daemon_;
  discovery::Registry& registry_;
  discovery::search::Searcher& searcher_;
  auth::Authenticator& auth_;
  DomainClaimsOf claims_;  // through the node's PublisherDomains
};

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_SKILL_ROUTES_H_
