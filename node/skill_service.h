// SkillService: the skill registry on a running node: the Registry (skills registered with
// this node), the Searcher (discovery through local, LAN, cache, DHT and SkillCenter), the
// Authenticator, and their HTTP routes, each set owned by a helper:
//
//   SkillRoutes (skill_routes.h)       /api/skills: register, heartbeat, unregister, list,
//                                      search, get by id; POST /api/cache/refresh
//   api::SceneJoin (api/scene_join.h)  POST /api/scenes/{scene}/join: the §4.3 SceneJoinResult
//   SkillWatch (skill_watch.h)         GET /api/v1/watch?scene=|capability=|skill=: Server-Sent
//                                      Events of the skills under that DHT key
//   api::WellKnownRoutes               skill-sharing §5's /.well-known/skill-sharing,
//                                      /skills/{id}/descriptor.json and /skills?type=
//   api::SkillFolderRoutes             POST /api/skills/folder, GET /api/skills/{id}/skill.md
//                                      and /download (SKILL.md folders)
//   formats::A2aRoutes                 A2A Agent Cards: /.well-known/agent-card.json (and
//                                      agent.json), /a2a/agents/{agentId}/agent-card.json, and
//                                      the node key's /.well-known/jwks.json
//   formats::McpRegistryRoutes         the MCP Registry read API, /v0.1/servers... (and /v0)
//   formats::AgentSkillsRoutes         /.well-known/agent-skills/index.json
//   formats::AiCatalogRoutes           /.well-known/ai-catalog.json, and GET / with its Link
//                                      (the three over formats::FormatRecords: the network's
//                                      MCP servers and Agent Skills; docs/formats.md)
//   publisher::PublisherDomains        the node's DomainVerifier: the claimed publisher domains
//                                      every skill answer shows with their states
//   publisher::AddPublisherProofRoute  GET /.well-known/skillnode-publisher, this node's key
//
// The service itself is the wiring: it makes the registry, searcher and authenticator from the
// daemon's configuration, adds their timers, node info ("registry", "auth", "skillFolders"),
// metrics, reload step and shutdown step (every registration is unpublished with a tombstone,
// reason SHUTDOWN), adds the helpers' routes, and passes each registry change to the cache and
// to SkillWatch.
//
// Access levels (docs/access.md): every read route admits the request through the
// Authenticator first (a bad bearer token is answered 401, a source past its failure limit
// 429); without a valid token no private skill appears in any answer (GET by id answers 404 as
// for an unknown skill). Registration, heartbeats and unregistration are accepted only from
// this host (docs/architecture.md "Registration, health and the LAN"). The answers the routes
// share are in skill_answers.h. docs/api.md documents every route with its errors.
#ifndef SKILLNODE_NODE_SKILL_SERVICE_H_
#define SKILLNODE_NODE_SKILL_SERVICE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "discovery/search/words/dht_word_sources.h"
#include "node/api/scene_join.h"
#include "node/api/skill_folder_routes.h"
#include "node/api/well_known_routes.h"
#include "node/auth/authenticator.h"
#include "node/daemon.h"
#include "node/formats/a2a/a2a_routes.h"
#include "node/formats/catalogs/agent_skills_routes.h"
#include "node/formats/catalogs/ai_catalog_routes.h"
#include "node/formats/format_records.h"
#include "node/formats/mcp_registry/mcp_registry_routes.h"
#include "node/publisher/publisher_domains.h"
#include "node/publisher/publisher_proof_route.h"
#include "node/skill_answers.h"
#include "node/skill_routes.h"
#include "node/skill_watch.h"

namespace skillnode::node {

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
  // SKILL.md folders and the node's blob store (the importers register through it).
  api::SkillFolderRoutes& folders() { return folders_; }
  // The publisher domains records claim, as this node has checked them (the importers prove
  // their sources' domains through it too).
  publisher::PublisherDomains& domains() { return domains_; }

 private:
  // Adds every helper's routes to the daemon's router.
  void AddRoutes();
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  auth::Authenticator auth_;
  discovery::Registry registry_;
  // The word search's sources on the DHT (the searcher holds pointers to them: declared first,
  // destroyed after it).
  discovery::search::DhtTermSource word_terms_;
  discovery::search::DhtRecordSource word_records_;
  discovery::search::Searcher searcher_;
  publisher::PublisherDomains domains_;
  api::WellKnownRoutes well_known_;
  formats::a2a::A2aRoutes a2a_;
  api::SkillFolderRoutes folders_;
  formats::FormatRecords format_records_;
  formats::mcp_registry::McpRegistryRoutes mcp_registry_;
  formats::catalogs::AgentSkillsRoutes agent_skills_;
  formats::catalogs::AiCatalogRoutes ai_catalog_;
  SkillRoutes skill_routes_;
  api::SceneJoin scene_join_;
  SkillWatch watch_;
};

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_SKILL_SERVICE_H_
