// A2aRoutes (a2a_routes.h).
#include "node/formats/a2a/a2a_routes.h"

#include <chrono>
#include <set>
#include <string>
#include <utility>

#include "discovery/query.h"
#include "node/api/skill_index.h"
#include "node/daemon/node_api.h"
#include "node/formats/a2a/a2a_skill.h"
#include "node/formats/cached_json.h"
#include "node/jose/jcs.h"

namespace skillnode::node::formats::a2a {
namespace {

using discovery::search::SearchResult;
using kademlia::store::SkillRecord;
using nlohmann::json;

// Whether a card for this request may list `record`: private ones need a valid token, and
// records whose texts are not UTF-8 cannot be shown in JSON at all.
bool Visible(const SkillRecord& record, bool authenticated) {
  return (authenticated || !discovery::IsPrivate(record)) && ShowableInCard(record);
}

}  // namespace

A2aRoutes::A2aRoutes(Daemon& daemon, discovery::Registry& registry,
                     discovery::search::Searcher& searcher, auth::Authenticator& auth,
                     publisher::PublisherDomains& domains)
    : daemon_(daemon),
      registry_(registry),
      searcher_(searcher),
      auth_(auth),
      domains_(domains),
      signer_(daemon.identity()) {
  http::Router& router = daemon_.router();
  for (const char* path : {kAgentCardPath, kLegacyAgentCardPath}) {
    router.Add("GET", path, [this](const http::HttpRequest& request, http::Responder responder) {
      HandleNodeCard(request, std::move(responder));
    });
  }
  router.Add("GET", kAgentCardsPattern,
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleAgentCard(request, std::move(responder));
             });
  router.Add("GET", kJwksPath, [this](const http::HttpRequest& request, http::Responder responder) {
    HandleJwks(request, std::move(responder));
  });
}

CardHost A2aRoutes::HostOf(const http::HttpRequest& request) const {
  return CardHost{api::BaseUrl(request, daemon_.http_url()), daemon_.config().node.mcp.enabled};
}

uint64_t A2aRoutes::MaxAgeSeconds() const {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(daemon_.config().provider.card_max_age)
          .count());
}

json A2aRoutes::ProviderOf(const std::vector<SkillRecord>& records) const {
  const config::ProviderConfig& own = daemon_.config().provider;
  if (own.name.empty() || own.url.empty()) return nullptr;
  for (const SkillRecord& record : records) {
    if (record.publisher != daemon_.identity().public_key()) return nullptr;
  }
  return {{"organization", own.name}, {"url", own.url}};
}

void A2aRoutes::HandleNodeCard(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  std::vector<SkillRecord> records;
  for (SkillRecord& record : registry_.Records()) {
    if (Visible(record, context.authenticated)) records.push_back(std::move(record));
  }
  discovery::Rank(records);
  const config::ProviderConfig& provider = daemon_.config().provider;
  const NodeCardInfo node{daemon_.identity().node_id().ToHex(), provider.name, provider.url,
                          daemon::kVersion};
  const CardHost host = HostOf(request);
  json card = NodeAgentCard(node, host, records);
  AddDomainClaims(card, DomainClaims(records));
  SendCard(request, responder, std::move(card), host, context.authenticated);
}

void A2aRoutes::HandleAgentCard(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  const std::string agent_id = *request.Param("agentId");
  if (agent_id.size() > kademlia::store::kIdLengthMax) {
    return responder.Error(400, "BAD_REQUEST",
                           "agentId: at most " + std::to_string(kademlia::store::kIdLengthMax) +
                               " characters, got " + std::to_string(agent_id.size()),
                           {{"field", "agentId"}});
  }
  if (!jose::JsonStringLiteral(agent_id)) {
    return responder.Error(400, "BAD_REQUEST", "agentId: not UTF-8", {{"field", "agentId"}});
  }
  discovery::SkillQuery query;
  query.agent_id = agent_id;
  discovery::search::SearchOptions options;
  options.use_lan = false;          // LAN announcements are unsigned and carry no descriptor
  options.use_skillcenter = false;  // nor are the catalog's entries signed by a publisher
  searcher_.Search(daemon_.Now(), query, options,
                   [this, request, responder, agent_id,
                    authenticated = context.authenticated](const SearchResult& result) mutable {
                     AnswerAgent(request, responder, agent_id, authenticated, result);
                   });
}

void A2aRoutes::AnswerAgent(const http::HttpRequest& request, http::Responder& responder,
                            const std::string& agent_id, bool authenticated,
                            const SearchResult& result) {
  std::vector<SkillRecord> records;
  for (const auto& found : result.skills) {
    if (found.record().agent_id == agent_id && Visible(found.record(), authenticated)) {
      records.push_back(found.record());
    }
  }
  if (records.empty()) {
    if (result.error && result.error != discovery::search::DiscError::kNoSkills) {
      return responder.Error(discovery::search::DiscHttpStatus(*result.error),
                             discovery::search::DiscCode(*result.error),
                             "the lookup of agent " + agent_id + " failed: " + result.message,
                             {{"agentId", agent_id}});
    }
    return responder.Error(404, "DISC_002", "no agent " + agent_id + " is known",
                           {{"agentId", agent_id}});
  }
  const CardHost host = HostOf(request);
  json card = AgentCardOf(agent_id, host, records, ProviderOf(records));
  AddDomainClaims(card, DomainClaims(records));
  SendCard(request, responder, std::move(card), host, authenticated);
}

json A2aRoutes::DomainClaims(const std::vector<SkillRecord>& records) {
  json out = json::array();
  std::set<std::pair<kademlia::PublicKey, std::string>> seen;
  for (const SkillRecord& record : records) {
    if (record.publisher_domains.empty()) continue;
    const std::string node_id = kademlia::NodeIdOf(record.publisher).ToHex();
    for (json& claim : domains_.ClaimsJson(record)) {
      if (!seen.emplace(record.publisher, claim["domain"].get<std::string>()).second) continue;
      claim["publisherNodeId"] = node_id;
      out.push_back(std::move(claim));
    }
  }
  return out;
}

void A2aRoutes::SendCard(const http::HttpRequest& request, http::Responder& responder, json card,
                         const CardHost& host, bool authenticated) {
  auto signed_card = signer_.Sign(std::move(card), host.base_url + kJwksPath);
  if (!signed_card) {
    return responder.Error(500, "INTERNAL",
                           "the card cannot be signed: " + signed_card.error().message);
  }
  responder.Send(CachedJsonResponse(request, signed_card->dump(),
                                    CachePolicy{MaxAgeSeconds(), authenticated}));
}

void A2aRoutes::HandleJwks(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  http::HttpResponse response = CachedJsonResponse(request, signer_.jwks().Json().dump(),
                                                   CachePolicy{MaxAgeSeconds(), false});
  response.content_type = "application/jwk-set+json";  // RFC 7517 §8.5.1
  responder.Send(std::move(response));
}

}  // namespace skillnode::node::formats::a2a
