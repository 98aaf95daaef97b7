// SkillRoutes (skill_routes.h): the /api/skills handlers and the readers of their fields.
#include "node/skill_routes.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "node/api/skill_query.h"
#include "node/skill_answers.h"

namespace skillnode::node {
namespace {

using discovery::FieldError;
using nlohmann::json;

// A non-negative integer query parameter with a default and a maximum.
discovery::Parsed<size_t> SizeParam(const http::HttpRequest& request, const char* name,
                                    size_t fallback, size_t max) {
  const auto text = request.Query(name);
  if (!text) return fallback;
  size_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value > max) {
    return tl::unexpected(
        FieldError{name, "'" + *text + "' is not an integer from 0 to " + std::to_string(max)});
  }
  return value;
}

// The 404 of a heartbeat or unregistration for a registration this node does not hold.
void NotRegistered(http::Responder& responder, const std::string& message,
                   const std::string& skill_id) {
  responder.Error(404, "NOT_REGISTERED", message, {{"field", "skillId"}, {"skillId", skill_id}});
}

}  // namespace

discovery::Parsed<SearchPage> PageFromParams(const http::HttpRequest& request) {
  SearchPage page;
  auto limit = SizeParam(request, "limit", kPageLimitDefault, kPageLimitMax);
  if (!limit) return tl::unexpected(limit.error());
  auto offset = SizeParam(request, "offset", 0, kPageOffsetMax);
  if (!offset) return tl::unexpected(offset.error());
  page.limit = *limit;
  page.offset = *offset;
  page.options.use_cache = request.Query("fresh").value_or("false") != "true";
  page.options.use_lan = request.Query("lan").value_or("true") != "false";
  page.options.use_skillcenter = request.Query("skillcenter").value_or("true") != "false";
  return page;
}

discovery::Parsed<SearchPage> PageFromJson(const json& body) {
  SearchPage page;
  for (auto [name, field, max] : {std::tuple{"limit", &page.limit, kPageLimitMax},
                                  {"offset", &page.offset, kPageOffsetMax}}) {
    auto it = body.find(name);
    if (it == body.end()) continue;
    if (!it->is_number_unsigned() || it->get<size_t>() > max) {
      return tl::unexpected(
          FieldError{name, "must be an integer from 0 to " + std::to_string(max)});
    }
    *field = it->get<size_t>();
  }
  for (auto [name, field, inverted] : {std::tuple{"fresh", &page.options.use_cache, true},
                                       {"lan", &page.options.use_lan, false},
                                       {"skillcenter", &page.options.use_skillcenter, false}}) {
    auto it = body.find(name);
    if (it == body.end()) continue;
    if (!it->is_boolean()) return tl::unexpected(FieldError{name, "must be true or false"});
    *field = it->get<bool>() != inverted;
  }
  return page;
}

discovery::Parsed<HeartbeatFields> HeartbeatFromJson(const json& body) {
  for (const auto& [key, value] : body.items()) {
    if (key != "agentId" && key != "status" && key != "timestamp") {
      return tl::unexpected(FieldError{key, "is not a known field"});
    }
  }
  HeartbeatFields fields;
  const auto agent = body.find("agentId");
  if (agent == body.end() || !agent->is_string() || agent->get<std::string>().empty()) {
    return tl::unexpected(FieldError{"agentId", "is required (a string)"});
  }
  fields.agent_id = agent->get<std::string>();
  if (auto it = body.find("status"); it != body.end() && !it->is_null()) {
    auto parsed = it->is_string()
                      ? kademlia::store::ParseSkillStatus(it->get<std::string>())
                      : transport::Fail(transport::ErrorCode::kInvalidArgument, "must be a string");
    if (!parsed) return tl::unexpected(FieldError{"status", parsed.error().message});
    fields.status = *parsed;
  }
  return fields;
}

discovery::Parsed<UnregisterFields> UnregisterFromParams(const http::HttpRequest& request) {
  UnregisterFields fields;
  const auto agent = request.Query("agentId");
  if (!agent || agent->empty()) {
    return tl::unexpected(FieldError{"agentId", "query parameter is required"});
  }
  fields.agent_id = *agent;
  if (const auto text = request.Query("reason")) {
    auto parsed = kademlia::store::ParseUnregisterReason(*text);
    if (!parsed) return tl::unexpected(FieldError{"reason", parsed.error().message});
    fields.reason = *parsed;
  }
  return fields;
}

std::string PageJson(const discovery::search::SearchResult& result, size_t offset, size_t limit,
                     bool paged, const DomainClaimsOf& claims) {
  std::string out;
  out.reserve(1024 + 700 * std::min(limit, result.skills.size()));
  out += '{';
  if (paged) {
    out += "\"limit\":" + std::to_string(limit) + ",\"offset\":" + std::to_string(offset) + ',';
  }
  out += "\"skills\":[";
  for (size_t i = offset; i < result.skills.size() && i < offset + limit; ++i) {
    if (i > offset) out += ',';
    result.skills[i].entry->AppendJson(out, result.skills[i].source);
    const auto& record = result.skills[i].record();
    if (claims && !record.publisher_domains.empty()) {
      assert(out.back() == '}' && "a skill's JSON is an object");
      out.pop_back();
      out += ",\"publisherDomains\":" + claims(record).dump() + '}';
    }
  }
  out += "],\"sources\":";
  AppendSourcesJson(out, result);
  out += ",\"stages\":";
  AppendStagesJson(out, result);
  out += ",\"total\":" + std::to_string(result.skills.size()) + '}';
  return out;
}

json SkillWithProviders(const std::string& id, const discovery::search::SearchResult& result,
                        const DomainClaimsOf& claims) {
  assert(!result.skills.empty() && "a skill's answer needs a skill found");
  const auto skill_json = [&claims](const kademlia::store::SkillRecord& record,
                                    discovery::Source source) {
    json out = discovery::SkillJson(record, source);
    if (claims && !record.publisher_domains.empty()) out["publisherDomains"] = claims(record);
    return out;
  };
  const auto& best = result.skills.front().record();
  json providers = json::array();
  for (const auto& found : result.skills) {
    providers.push_back(skill_json(found.record(), found.source));
  }
  json out = skill_json(best, result.skills.front().source);
  out["id"] = id;
  out["providers"] = std::move(providers);
  out["sources"] = SourcesJson(result);
  return out;
}

SkillRoutes::SkillRoutes(Daemon& daemon, discovery::Registry& registry,
                         discovery::search::Searcher& searcher, auth::Authenticator& auth,
                         publisher::PublisherDomains& domains)
    : daemon_(daemon),
      registry_(registry),
      searcher_(searcher),
      auth_(auth),
      claims_([&domains](const kademlia::store::SkillRecord& record) {
        return domains.ClaimsJson(record);
      }) {}

void SkillRoutes::AddRoutes(http::Router& router) {
  auto bind = [this](void (SkillRoutes::*handler)(const http::HttpRequest&, http::Responder)) {
    return [this, handler](const http::HttpRequest& request, http::Responder responder) {
      (this->*handler)(request, std::move(responder));
    };
  };
  router.Add("POST", "/api/skills", bind(&SkillRoutes::HandleRegister));
  router.Add("GET", "/api/skills", bind(&SkillRoutes::HandleList));
  router.Add("POST", "/api/skills/search", bind(&SkillRoutes::HandleSearch));
  router.Add("POST", "/api/skills/{skillId}/heartbeat", bind(&SkillRoutes::HandleHeartbeat));
  router.Add("DELETE", "/api/skills/{skillId}", bind(&SkillRoutes::HandleUnregister));
  router.Add("GET", "/api/skills/{id}", bind(&SkillRoutes::HandleGetSkill));
  router.Add("POST", "/api/cache/refresh", bind(&SkillRoutes::HandleCacheRefresh));
}

void SkillRoutes::HandleRegister(const http::HttpRequest& request, http::Responder responder) {
  if (!RequestFromThisHost(request, responder, "registration")) return;
  auto body = discovery::ParseJsonObject(request.body);
  if (!body) return BadField(responder, body.error(), "INVALID");
  auto fields = discovery::RegistrationFromJson(*body);
  if (!fields) return BadField(responder, fields.error(), "INVALID");
  AnswerRegistration(responder, registry_.Register(daemon_.Now(), std::move(*fields)));
}

void SkillRoutes::HandleHeartbeat(const http::HttpRequest& request, http::Responder responder) {
  if (!RequestFromThisHost(request, responder, "a heartbeat")) return;
  auto body = discovery::ParseJsonObject(request.body.empty() ? "{}" : request.body);
  if (!body) return BadField(responder, body.error(), "BAD_REQUEST");
  auto fields = HeartbeatFromJson(*body);
  if (!fields) return BadField(responder, fields.error(), "BAD_REQUEST");
  const std::string& skill_id = *request.Param("skillId");
  auto record = registry_.Heartbeat(daemon_.Now(), fields->agent_id, skill_id, fields->status);
  if (!record) return NotRegistered(responder, record.error().message, skill_id);
  responder.Json(200, {{"agentId", record->agent_id},
                       {"skillId", record->skill_id},
                       {"status", kademlia::store::SkillStatusName(record->status)}});
}

void SkillRoutes::HandleUnregister(const http::HttpRequest& request, http::Responder responder) {
  if (!RequestFromThisHost(request, responder, "unregistration")) return;
  auto fields = UnregisterFromParams(request);
  if (!fields) return BadField(responder, fields.error(), "BAD_REQUEST");
  const std::string& skill_id = *request.Param("skillId");
  auto record = registry_.Unregister(daemon_.Now(), fields->agent_id, skill_id, fields->reason);
  if (!record) return NotRegistered(responder, record.error().message, skill_id);
  responder.Json(200, {{"status", "UNREGISTERED"},
                       {"agentId", record->agent_id},
                       {"skillId", record->skill_id},
                       {"reason", kademlia::store::UnregisterReasonName(fields->reason)}});
}

void SkillRoutes::HandleList(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  auto query = api::QueryFromParams(request);
  if (!query) return BadField(responder, query.error(), "BAD_REQUEST");
  auto page = PageFromParams(request);
  if (!page) return BadField(responder, page.error(), "BAD_REQUEST");
  searcher_.Search(
      daemon_.Now(), *query, page->options,
      [this, responder, context,
       page = *page](const discovery::search::SearchResult& answer) mutable {
        std::optional<discovery::search::SearchResult> copy;
        const discovery::search::SearchResult& result = Visible(answer, context, copy);
        // Nothing found is an empty page.
        if (result.error && result.error != discovery::search::DiscError::kNoSkills) {
          return DiscoveryError(responder, result);
        }
        responder.Send(http::HttpResponse::Text(
            200, PageJson(result, page.offset, page.limit, true, claims_), "application/json"));
      });
}

void SkillRoutes::HandleSearch(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  auto body = discovery::ParseJsonObject(request.body);
  if (!body) return BadField(responder, body.error(), "BAD_REQUEST");
  auto query = api::QueryFromJson(*body);
  if (!query) return BadField(responder, query.error(), "BAD_REQUEST");
  auto page = PageFromJson(*body);
  if (!page) return BadField(responder, page.error(), "BAD_REQUEST");
  searcher_.Search(
      daemon_.Now(), *query, page->options,
      [this, responder, context,
       page = *page](const discovery::search::SearchResult& answer) mutable {
        std::optional<discovery::search::SearchResult> copy;
        const discovery::search::SearchResult& result = Visible(answer, context, copy);
        if (result.error) return DiscoveryError(responder, result);
        responder.Send(http::HttpResponse::Text(
            200, PageJson(result, page.offset, page.limit, false, claims_), "application/json"));
      });
}

void SkillRoutes::HandleGetSkill(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  const std::string id = *request.Param("id");
  discovery::SkillQuery query;
  query.skill_id = id;
  searcher_.Search(daemon_.Now(), query, discovery::search::SearchOptions{},
                   [this, responder, context, id](discovery::search::SearchResult result) mutable {
                     HidePrivate(result, context);
                     if (result.error) {
                       if (result.error == discovery::search::DiscError::kNoSkills) {
                         result.message = "no skill with id " + id + " is registered";
                       }
                       return DiscoveryError(responder, result);
                     }
                     responder.Json(200, SkillWithProviders(id, result, claims_));
                   });
}

void SkillRoutes::HandleCacheRefresh(const http::HttpRequest&, http::Responder responder) {
  const size_t entries = searcher_.cache().size();
  searcher_.ClearCache();
  responder.Json(200, {{"cleared", entries}});
}

}  // namespace skillnode::node
