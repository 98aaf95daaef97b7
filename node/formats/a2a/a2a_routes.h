// A2aRoutes: the A2A v1.0 Agent Cards every node serves, signed with the node's key, and the
// key itself (docs/formats.md "A2A Agent Cards"):
//
//   GET /.well-known/agent-card.json           the node's own card: its skills are the skills
//   GET /.well-known/agent.json                registered with this node (the second path is
//                                              the pre-0.3 name, same card)
//   GET /a2a/agents/{agentId}/agent-card.json  one agent's card, from its records anywhere in
//                                              the network: the Searcher's local stage and a
//                                              DHT lookup under SHA256("agent:" + agentId)
//   GET /.well-known/jwks.json                 the node's Ed25519 public key as a JWK Set
//
// Cards are built by a2a_card.h and signed by A2aCardSigner (jku: this node's JWKS URL, with
// the host the request named). Every answer carries a strong ETag (SHA-256 of the body),
// Cache-Control max-age (config provider.cardMaxAge) and answers If-None-Match with 304.
// Access levels as for every read route: each request is admitted by the Authenticator (a bad
// token: 401); private skills appear only with a valid token, and such a card is
// `Cache-Control: private`. The publisher domains the card's records claim are shown in an A2A
// extension (a2a_card.h kPublisherDomainsExtensionUri) with their states from the node's
// PublisherDomains (never waiting for a check). An agent with no visible record is 404 DISC_002; a
// lookup that failed with nothing found answers the search's error (DISC_001 504, DISC_005 503).
// LAN announcements and the SkillCenter catalog are not used: a card lists signed records only.
#ifndef SKILLNODE_NODE_FORMATS_A2A_ROUTES_H_
#define SKILLNODE_NODE_FORMATS_A2A_ROUTES_H_

#include <nlohmann/json.hpp>
#include <vector>

#include "discovery/registry/registry.h"
#include "discovery/search/searcher.h"
#include "node/auth/authenticator.h"
#include "node/daemon.h"
#include "node/formats/a2a/a2a_card.h"
#include "node/formats/a2a/a2a_card_signer.h"
#include "node/publisher/publisher_domains.h"

namespace skillnode::node::formats::a2a {

inline constexpr const char* kAgentCardPath = "/.well-known/agent-card.json";
inline constexpr const char* kLegacyAgentCardPath = "/.well-known/agent.json";
inline constexpr const char* kAgentCardsPattern = "/a2a/agents/{agentId}/agent-card.json";

class A2aRoutes {
 public:
  // Adds the routes to `daemon`'s router; every reference must outlive this.
  A2aRoutes(Daemon& daemon, discovery::Registry& registry, discovery::search::Searcher& searcher,
            auth::Authenticator& auth, publisher::PublisherDomains& domains);
  A2aRoutes(const A2aRoutes&) = delete;
  A2aRoutes& operator=(const A2aRoutes&) = delete;

 private:
  void HandleNodeCard(const http::HttpRequest& request, http::Responder responder);
  void HandleAgentCard(const http::HttpRequest& request, http::Responder responder);
  void HandleJwks(const http::HttpRequest& request, http::Responder responder);
  // Answers with the agent's card from what the search found (or 404 / the search's error).
  void AnswerAgent(const http::HttpRequest& request, http::Responder& responder,
                   const std::string& agent_id, bool authenticated,
                   const discovery::search::SearchResult& result);
  // Signs `card` and answers it with the caching headers.
  void SendCard(const http::HttpRequest& request, http::Responder& responder, nlohmann::json card,
                const CardHost& host, bool authenticated);
  CardHost HostOf(const http::HttpRequest& request) const;
  // provider {organization, url} when every record is this node's and both are configured.
  nlohmann::json ProviderOf(const std::vector<kademlia::store::SkillRecord>& records) const;
  uint64_t MaxAgeSeconds() const;
  // The publisher domains `records` claim, once per (publisher, domain), each with the
  // publisher's node id: the card's publisher-domains extension.
  nlohmann::json DomainClaims(const std::vector<kademlia::store::SkillRecord>& records);

  Daemon& daemon_;
  discovery::Registry& registry_;
  discovery::search::Searcher& searcher_;
  auth::Authenticator& auth_;
  publisher::PublisherDomains& domains_;
  A2aCardSigner signer_;
};

}  // namespace skillnode::node::formats::a2a

#endif  // SKILLNODE_NODE_FORMATS_A2A_ROUTES_H_
