// The routes of skill-sharing §5 on a node (docs/api.md "The well-known skill index"):
//
//   GET /.well-known/skill-sharing[?type=T]   the Skill Index of the skills registered with
//                                             this node (§5.2), filtered by capability type
//                                             (§5.6)
//   GET /skills/{id}/descriptor.json          the full Skill Descriptor (§5.3), of a skill of
//                                             this node or, found through the DHT, any other
//   GET /skills?type=T                        the registry query (§5.4) for the whole network,
//                                             through the DHT key SHA256("type:" + T)
//   GET /schemas/skill-descriptor.json        the Skill Descriptor's JSON Schema (draft 7)
//
// Access levels (§5.5) apply to all three: a private skill is shown only to a request with a
// valid bearer token (node/auth); without one it is absent (a descriptor URL answers 404 as
// for an unknown id). Ids are IndexId()'s "{agentId}.{skillId}-v{major}" (§5.7).
#ifndef SKILLNODE_NODE_API_WELL_KNOWN_ROUTES_H_
#define SKILLNODE_NODE_API_WELL_KNOWN_ROUTES_H_

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "node/api/skill_index.h"
#include "node/auth/authenticator.h"
#include "node/daemon.h"

namespace skillnode::node::api {

// Skill ids one descriptor URL is tried as, each a DHT lookup (an id "a.b.c-v1" may be agent
// "a" with skill "b.c" or agent "a.b" with skill "c"); ids with more dots find only what a
// split among the first this many names.
constexpr size_t kDescriptorCandidatesMax = 8;

class WellKnownRoutes {
 public:
  // Adds the routes to `daemon`'s router; every reference must outlive this.
  WellKnownRoutes(Daemon& daemon, discovery::Registry& registry,
                  discovery::search::Searcher& searcher, auth::Authenticator& auth);
  WellKnownRoutes(const WellKnownRoutes&) = delete;
  WellKnownRoutes& operator=(const WellKnownRoutes&) = delete;

 private:
  void HandleIndex(const http::HttpRequest& request, http::Responder responder);
  void HandleDescriptor(const http::HttpRequest& request, http::Responder responder);
  void HandleRegistryQuery(const http::HttpRequest& request, http::Responder responder);
  // This node's provider (config `provider`), or the publishing node of another's record.
  ProviderInfo ProviderOf(const kademlia::store::SkillRecord& record) const;

  Daemon& daemon_;
  discovery::Registry& registry_;
  discovery::search::Searcher& searcher_;
  auth::Authenticator& auth_;
};

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_WELL_KNOWN_ROUTES_H_
