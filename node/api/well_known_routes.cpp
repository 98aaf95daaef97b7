#include "node/api/well_known_routes.h"

#include <memory>
#include <set>

#include "discovery/schema/descriptor_schema.h"

namespace skillnode::node::api {
namespace {

using discovery::search::SearchResult;
using kademlia::store::SkillRecord;
using nlohmann::json;

bool Visible(const SkillRecord& record, const auth::AuthContext& context) {
  return context.authenticated || !discovery::IsPrivate(record);
}

// The `type` parameter: absent is nullopt; present and empty is an error (answered).
bool TypeParam(const http::HttpRequest& request, http::Responder& responder,
               std::optional<std::string>& out, bool required) {
  out = request.Query("type");
  if ((out && out->empty()) || (!out && required)) {
    responder.Error(400, "BAD_REQUEST",
                    "type: the capability type to look for is required (?type=T)",
                    {{"field", "type"}});
    return false;
  }
  return true;
}

}  // namespace

WellKnownRoutes::WellKnownRoutes(Daemon& daemon, discovery::Registry& registry,
                                 discovery::search::Searcher& searcher, auth::Authenticator& auth)
    : daemon_(daemon), registry_(registry), searcher_(searcher), auth_(auth) {
  http::Router& router = daemon_.router();
  router.Add("GET", "/.well-known/skill-sharing",
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleIndex(request, std::move(responder));
             });
  router.Add("GET", "/skills/{id}/descriptor.json",
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleDescriptor(request, std::move(responder));
             });
  router.Add("GET", "/skills", [this](const http::HttpRequest& request, http::Responder responder) {
    HandleRegistryQuery(request, std::move(responder));
  });
  // The Skill Descriptor's JSON Schema (the one file discovery/schema/ ships), at its $id.
  router.Add("GET", discovery::schema::kSkillDescriptorSchemaPath,
             [](const http::HttpRequest&, http::Responder responder) {
               responder.Send(http::HttpResponse::Text(
                   200, std::string(discovery::schema::SkillDescriptorSchemaText()),
                   "application/schema+json"));
             });
}

ProviderInfo WellKnownRoutes::ProviderOf(const SkillRecord& record) const {
  const std::string node_id = kademlia::NodeIdOf(record.publisher).ToHex();
  if (record.publisher == daemon_.identity().public_key()) {
    const config::ProviderConfig& own = daemon_.config().provider;
    return ProviderInfo{own.name.empty() ? node_id : own.name, own.url, node_id};
  }
  return ProviderInfo{node_id, "", node_id};
}

void WellKnownRoutes::HandleIndex(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  std::optional<std::string> type;
  if (!TypeParam(request, responder, type, false)) return;
  const std::string base = BaseUrl(request, daemon_.http_url());
  json skills = json::array();
  for (const SkillRecord& record : registry_.Records()) {
    if (!Visible(record, context)) continue;
    if (type && discovery::CapabilityTypeOf(record) != *type) continue;
    skills.push_back(IndexEntryJson(record, base));
  }
  const config::ProviderConfig& own = daemon_.config().provider;
  json provider = {{"name", own.name.empty() ? daemon_.identity().node_id().ToHex() : own.name}};
  if (!own.url.empty()) provider["url"] = own.url;
  responder.Json(200, {{"protocol", {{"version", kSkillIndexProtocolVersion}}},
                       {"provider", std::move(provider)},
                       {"skills", std::move(skills)}});
}

void WellKnownRoutes::HandleDescriptor(const http::HttpRequest& request,
                                       http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  const std::string id = *request.Param("id");
  if (const SkillRecord* own = registry_.FindByIndexId(id); own != nullptr) {
    if (Visible(*own, context)) return responder.Json(200, DescriptorJson(*own, ProviderOf(*own)));
  }
  const auto candidates = discovery::IndexIdSkillCandidates(id, kDescriptorCandidatesMax);
  auto not_found = [id](http::Responder& r) {
    r.Error(404, "DISC_002", "no skill with id " + id + " is known", {{"id", id}});
  };
  if (candidates.empty()) return not_found(responder);
  // One lookup per candidate skill id; the answer waits for all of them.
  struct Join {
    size_t pending = 0;
    std::vector<SkillRecord> found;
    std::optional<discovery::search::DiscError> error;
  };
  auto join = std::make_shared<Join>();
  join->pending = candidates.size();
  for (const std::string& skill_id : candidates) {
    discovery::SkillQuery query;
    query.skill_id = skill_id;
    discovery::search::SearchOptions options;
    options.use_lan = false;  // the LAN does not carry descriptors
    searcher_.Search(
        daemon_.Now(), query, options,
        [this, join, id, context, responder, not_found](SearchResult result) mutable {
          for (auto& found : result.skills) {
            if (discovery::IndexId(found.record()) == id && Visible(found.record(), context)) {
              join->found.push_back(found.record());
            }
          }
          if (result.error && result.error != discovery::search::DiscError::kNoSkills) {
            join->error = result.error;
          }
          if (--join->pending > 0) return;
          if (join->found.empty()) {
            if (join->error) {
              return responder.Error(discovery::search::DiscHttpStatus(*join->error),
                                     discovery::search::DiscCode(*join->error),
                                     "the lookup of " + id + " failed", {{"id", id}});
            }
            return not_found(responder);
          }
          discovery::Rank(join->found);
          const SkillRecord& best = join->found.front();
          responder.Json(200, DescriptorJson(best, ProviderOf(best)));
        });
  }
}

void WellKnownRoutes::HandleRegistryQuery(const http::HttpRequest& request,
                                          http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  std::optional<std::string> type;
  if (!TypeParam(request, responder, type, true)) return;
  discovery::SkillQuery query;
  query.capability_types = {*type};
  discovery::search::SearchOptions options;
  options.use_lan = false;  // LAN announcements carry no capability type
  const std::string base = BaseUrl(request, daemon_.http_url());
  searcher_.Search(
      daemon_.Now(), query, options,
      [responder, context, base, type = *type](SearchResult result) mutable {
        if (result.error && result.error != discovery::search::DiscError::kNoSkills) {
          return responder.Error(discovery::search::DiscHttpStatus(*result.error),
                                 discovery::search::DiscCode(*result.error), result.message,
                                 {{"type", type}});
        }
        json skills = json::array();
        std::set<std::string> ids;  // the best ranked of each id (two nodes may both hold one)
        for (const auto& found : result.skills) {
          if (!Visible(found.record(), context)) continue;
          if (!ids.insert(discovery::IndexId(found.record())).second) continue;
          skills.push_back(IndexEntryJson(found.record(), base));
        }
        responder.Json(200, {{"protocol", {{"version", kSkillIndexProtocolVersion}}},
                             {"type", type},
                             {"total", skills.size()},
                             {"skills", std::move(skills)}});
      });
}

}  // namespace skillnode::node::api
