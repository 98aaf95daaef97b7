#include "node/formats/catalogs/agent_skills_routes.h"

#include <utility>

#include "node/api/skill_index.h"
#include "node/formats/catalogs/agent_skills_index.h"
#include "node/formats/format_response.h"

namespace skillnode::node::formats::catalogs {

AgentSkillsRoutes::AgentSkillsRoutes(http::Router& router, const FormatRecords& records,
                                     auth::Authenticator& auth,
                                     std::function<transport::TimePoint()> now,
                                     std::function<std::string()> http_url)
    : records_(records), auth_(auth), now_(std::move(now)), http_url_(std::move(http_url)) {
  router.Add("GET", kAgentSkillsIndexPath,
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleIndex(request, std::move(responder));
             });
}

void AgentSkillsRoutes::HandleIndex(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  records_.Gather(
      now_(), kademlia::store::RecordFormat::kAgentSkill, context.authenticated,
      [responder, authenticated = context.authenticated,
       base = api::BaseUrl(request, http_url_())](Gathered gathered) mutable {
        if (gathered.outcome == Gathered::Outcome::kBusy) {
          return responder.Error(503, "BUSY", "too many lookups are running; try again");
        }
        responder.Send(ListingResponse(200, SkillIndexJson(gathered.records, base), authenticated));
      });
}

}  // namespace skillnode::node::formats::catalogs
