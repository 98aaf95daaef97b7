#include "node/formats/catalogs/ai_catalog_routes.h"

#include <cassert>
#include <memory>
#include <utility>

#include "node/api/skill_index.h"
#include "node/formats/catalogs/agent_skills_index.h"
#include "node/formats/catalogs/ai_catalog.h"
#include "node/formats/catalogs/did_key.h"
#include "node/formats/format_response.h"

namespace skillnode::node::formats::catalogs {
namespace {

using kademlia::store::RecordFormat;

// Both formats' records, gathered side by side; the answer goes out when both are in.
struct CatalogJoin {
  CatalogSources sources;
  size_t pending = 3;  // one gather per format
  bool busy = false;
  bool authenticated = false;
  http::Responder responder;
};

void FinishIfDone(const std::shared_ptr<CatalogJoin>& join) {
  if (--join->pending > 0) return;
  if (join->busy) {
    return join->responder.Error(503, "BUSY", "too many lookups are running; try again");
  }
  join->responder.Send(ListingResponse(200, AiCatalogJson(join->sources), join->authenticated,
                                       std::string(kAiCatalogMediaType)));
}

}  // namespace

AiCatalogRoutes::AiCatalogRoutes(http::Router& router, const FormatRecords& records,
                                 const discovery::Registry& registry, auth::Authenticator& auth,
                                 CatalogNode node)
    : records_(records), registry_(registry), auth_(auth), node_(std::move(node)) {
  assert(node_.identity != nullptr && node_.now && node_.http_url && node_.config);
  router.Add("GET", kAiCatalogPath,
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleCatalog(request, std::move(responder));
             });
  router.Add("GET", "/", [this](const http::HttpRequest& request, http::Responder responder) {
    HandleRoot(request, std::move(responder));
  });
}

void AiCatalogRoutes::HandleCatalog(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  auto join = std::make_shared<CatalogJoin>();
  join->authenticated = context.authenticated;
  join->responder = std::move(responder);
  const config::ProviderConfig& provider = node_.config().provider;
  const std::string node_id = node_.identity->node_id().ToHex();
  CatalogSources& sources = join->sources;
  sources.host.display_name = provider.name.empty() ? "skillnode node " + node_id : provider.name;
  sources.host.identifier = DidKeyOf(node_.identity->public_key());
  sources.host.documentation_url = provider.url;
  sources.base_url = api::BaseUrl(request, node_.http_url());
  sources.node_id_hex = node_id;
  for (const kademlia::store::SkillRecord& record : registry_.Records()) {
    if (context.authenticated || !discovery::IsPrivate(record)) {
      sources.agent_ids.push_back(record.agent_id);
    }
  }
  for (RecordFormat format :
       {RecordFormat::kMcpServer, RecordFormat::kAgentSkill, RecordFormat::kA2aAgent}) {
    records_.Gather(node_.now(), format, context.authenticated, [join, format](Gathered gathered) {
      if (gathered.outcome == Gathered::Outcome::kBusy) join->busy = true;
      CatalogSources& sources = join->sources;
      switch (format) {
        case RecordFormat::kMcpServer:
          sources.mcp_servers = std::move(gathered.records);
          break;
        case RecordFormat::kAgentSkill:
          sources.agent_skills = std::move(gathered.records);
          break;
        case RecordFormat::kA2aAgent:  // only their agents: each has a card entry
          for (const ListedRecord& listed : gathered.records) {
            sources.agent_ids.push_back(listed.record.agent_id);
          }
          break;
      }
      FinishIfDone(join);
    });
  }
}

void AiCatalogRoutes::HandleRoot(const http::HttpRequest&, http::Responder responder) {
  nlohmann::json links = {{"aiCatalog", kAiCatalogPath},
                          {"agentCard", "/.well-known/agent-card.json"},
                          {"agentSkills", kAgentSkillsIndexPath},
                          {"mcpRegistry", "/v0.1/servers"},
                          {"skillIndex", "/.well-known/skill-sharing"},
                          {"skills", "/api/skills"},
                          {"node", "/api/node"}};
  if (node_.config().node.ui.enabled) links["console"] = "/ui/";
  http::HttpResponse response =
      http::HttpResponse::Json(200, {{"service", "skillnode"},
                                     {"nodeId", node_.identity->node_id().ToHex()},
                                     {"links", std::move(links)}});
  response.headers.emplace_back("Link", std::string(kAiCatalogLink));
  responder.Send(std::move(response));
}

}  // namespace skillnode::node::formats::catalogs
