// SkillService's HTTP handlers (the routes are listed in skill_service.h).
#include <uv.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <set>

#include "kademlia/wire/encoding.h"
#include "node/api/skill_query.h"
#include "node/skill_service.h"

namespace skillnode::node {
namespace {

using discovery::SkillQuery;
using nlohmann::json;

json StagesJson(const discovery::search::SearchResult& result) {
  json stages = json::array();
  for (const auto& stage : result.stages) {
    json one = {{"stage", stage.stage},
                {"outcome", stage.outcome},
                {"records", stage.records},
                {"ms", stage.duration_ms}};
    if (!stage.code.empty()) {
      one["code"] = stage.code;
      one["detail"] = stage.detail;
    }
    stages.push_back(std::move(one));
  }
  return stages;
}

// The sources the skills came from, by name in order.
json SourcesJson(const discovery::search::SearchResult& result) {
  constexpr discovery::Source kAll[] = {discovery::Source::kLocal, discovery::Source::kLan,
                                        discovery::Source::kDht, discovery::Source::kSkillCenter,
                                        discovery::Source::kCache};
  std::array<bool, std::size(kAll)> seen{};
  for (const auto& found : result.skills) seen[static_cast<size_t>(found.source)] = true;
  std::set<std::string_view> names;
  for (const discovery::Source source : kAll) {
    if (seen[static_cast<size_t>(source)]) names.insert(discovery::SourceName(source));
  }
  return json(std::vector<std::string>(names.begin(), names.end()));
}

// A non-negative integer query parameter with a default and a maximum.
discovery::Parsed<size_t> SizeParam(const http::HttpRequest& request, const char* name,
                                    size_t fallback, size_t max) {
  const auto text = request.Query(name);
  if (!text) return fallback;
  size_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value > max) {
    return tl::unexpected(discovery::FieldError{
        name, "'" + *text + "' is not an integer from 0 to " + std::to_string(max)});
  }
  return value;
}

bool IsThisHost(const transport::Address& peer) {
  if (peer.IsLoopback()) return true;
  uv_interface_address_t* interfaces = nullptr;
  int count = 0;
  if (uv_interface_addresses(&interfaces, &count) != 0) return false;
  bool found = false;
  for (int i = 0; i < count && !found; ++i) {
    std::array<uint8_t, 16> bytes{};
    if (interfaces[i].address.address4.sin_family == AF_INET) {
      std::memcpy(bytes.data(), &interfaces[i].address.address4.sin_addr, 4);
      found = transport::Address::V4({bytes[0], bytes[1], bytes[2], bytes[3]}) == peer;
    } else {
      std::memcpy(bytes.data(), &interfaces[i].address.address6.sin6_addr, 16);
      found = transport::Address::V6(bytes) == peer;
    }
  }
  uv_free_interface_addresses(interfaces, count);
  return found;
}

// A page of a search's skills as the API answers it, serialised from each skill's cached JSON
// text: {"limit", "offset" (when `paged`), "skills", "sources", "stages", "total"}, the keys in
// the order the API's other answers use (sorted).
std::string PageJson(const discovery::search::SearchResult& result, size_t offset, size_t limit,
                     bool paged) {
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
  }
  out += "],\"sources\":";
  out += SourcesJson(result).dump();
  out += ",\"stages\":";
  out += StagesJson(result).dump();
  out += ",\"total\":" + std::to_string(result.skills.size()) + '}';
  return out;
}

json SkillWithProviders(const std::string& id, const discovery::search::SearchResult& result) {
  const auto& best = result.skills.front().record();
  json providers = json::array();
  for (const auto& found : result.skills) {
    providers.push_back(discovery::SkillJson(found.record(), found.source));
  }
  json out = discovery::SkillJson(best, result.skills.front().source);
  out["id"] = id;
  out["providers"] = std::move(providers);
  out["sources"] = SourcesJson(result);
  return out;
}

}  // namespace

bool AnswerRegistration(http::Responder& responder, const discovery::RegisterOutcome& outcome,
                        const json& extra) {
  const std::string status(discovery::RegisterStatusName(outcome.status));
  if (outcome.status == discovery::RegisterStatus::kInvalid) {
    responder.Error(400, "INVALID", outcome.message,
                    {{"field", outcome.field}, {"status", status}});
    return false;
  }
  json answer = {{"status", status},
                 {"agentId", outcome.record.agent_id},
                 {"skillId", outcome.record.skill_id},
                 {"message", outcome.message},
                 {"timestamp", outcome.record.timestamp_ms},
                 {"skill", discovery::SkillJson(outcome.record, discovery::Source::kLocal)}};
  answer.update(extra);
  const bool created = outcome.status == discovery::RegisterStatus::kSuccess && !outcome.updated;
  responder.Json(created ? 201 : 200, answer);
  return true;
}

// Answers a FieldError: 400 with the field named.
void BadField(http::Responder& responder, const discovery::FieldError& error,
              std::string_view code) {
  const std::string message =
      error.field.empty() ? error.message : error.field + ": " + error.message;
  json details = {{"field", error.field}};
  if (!error.violations.empty()) {
    json violations = json::array();
    for (const auto& violation : error.violations) {
      violations.push_back({{"pointer", violation.pointer}, {"reason", violation.reason}});
    }
    details["violations"] = std::move(violations);
  }
  responder.Error(400, code, message, details);
}

void DiscoveryError(http::Responder& responder, const discovery::search::SearchResult& result) {
  const discovery::search::DiscError error = *result.error;
  responder.Error(discovery::search::DiscHttpStatus(error), discovery::search::DiscCode(error),
                  result.message, {{"stages", StagesJson(result)}});
}

void SkillService::AddRoutes() {
  http::Router& router = daemon_.router();
  auto bind = [this](void (SkillService::*handler)(const http::HttpRequest&, http::Responder)) {
    return [this, handler](const http::HttpRequest& request, http::Responder responder) {
      (this->*handler)(request, std::move(responder));
    };
  };
  router.Add("POST", "/api/skills", bind(&SkillService::HandleRegister));
  router.Add("GET", "/api/skills", bind(&SkillService::HandleList));
  router.Add("POST", "/api/skills/search", bind(&SkillService::HandleSearch));
  router.Add("POST", "/api/skills/{skillId}/heartbeat", bind(&SkillService::HandleHeartbeat));
  router.Add("DELETE", "/api/skills/{skillId}", bind(&SkillService::HandleUnregister));
  router.Add("GET", "/api/skills/{id}", bind(&SkillService::HandleGetSkill));
  router.Add("POST", "/api/scenes/{scene}/join", bind(&SkillService::HandleSceneJoin));
  router.Add("GET", "/api/v1/watch", bind(&SkillService::HandleWatch));
  router.Add("POST", "/api/cache/refresh",
             [this](const http::HttpRequest&, http::Responder responder) {
               const size_t entries = searcher_.cache().size();
               searcher_.ClearCache();
               responder.Json(200, {{"cleared", entries}});
             });
}

bool SkillService::FromThisHost(const http::HttpRequest& request, http::Responder& responder,
                                std::string_view what) {
  return RequestFromThisHost(request, responder, what);
}

bool RequestFromThisHost(const http::HttpRequest& request, http::Responder& responder,
                         std::string_view what) {
  if (IsThisHost(request.peer.address())) return true;
  responder.Error(403, "UNAUTHORIZED",
                  std::string(what) + " is accepted only from this node's own host; " +
                      request.peer.address().ToString() + " is not",
                  {{"status", "UNAUTHORIZED"}, {"peer", request.peer.address().ToString()}});
  return false;
}

void SkillService::HandleRegister(const http::HttpRequest& request, http::Responder responder) {
  if (!FromThisHost(request, responder, "registration")) return;
  auto body = discovery::ParseJsonObject(request.body);
  if (!body) return BadField(responder, body.error(), "INVALID");
  auto fields = discovery::RegistrationFromJson(*body);
  if (!fields) return BadField(responder, fields.error(), "INVALID");
  AnswerRegistration(responder, registry_.Register(daemon_.Now(), std::move(*fields)));
}

void SkillService::HandleHeartbeat(const http::HttpRequest& request, http::Responder responder) {
  if (!FromThisHost(request, responder, "a heartbeat")) return;
  auto body = discovery::ParseJsonObject(request.body.empty() ? "{}" : request.body);
  if (!body) return BadField(responder, body.error(), "BAD_REQUEST");
  for (const auto& [key, value] : body->items()) {
    if (key != "agentId" && key != "status" && key != "timestamp") {
      return responder.Error(400, "BAD_REQUEST", key + ": is not a known field", {{"field", key}});
    }
  }
  const auto agent = body->find("agentId");
  if (agent == body->end() || !agent->is_string() || agent->get<std::string>().empty()) {
    return responder.Error(400, "BAD_REQUEST", "agentId: is required (a string)",
                           {{"field", "agentId"}});
  }
  kademlia::store::SkillStatus status = kademlia::store::SkillStatus::kHealthy;
  if (auto it = body->find("status"); it != body->end() && !it->is_null()) {
    auto parsed = it->is_string()
                      ? kademlia::store::ParseSkillStatus(it->get<std::string>())
                      : transport::Fail(transport::ErrorCode::kInvalidArgument, "must be a string");
    if (!parsed) {
      return responder.Error(400, "BAD_REQUEST", "status: " + parsed.error().message,
                             {{"field", "status"}});
    }
    status = *parsed;
  }
  const std::string& skill_id = *request.Param("skillId");
  auto record = registry_.Heartbeat(daemon_.Now(), agent->get<std::string>(), skill_id, status);
  if (!record) {
    return responder.Error(404, "NOT_REGISTERED", record.error().message,
                           {{"field", "skillId"}, {"skillId", skill_id}});
  }
  responder.Json(200, {{"agentId", record->agent_id},
                       {"skillId", record->skill_id},
                       {"status", kademlia::store::SkillStatusName(record->status)}});
}

void SkillService::HandleUnregister(const http::HttpRequest& request, http::Responder responder) {
  if (!FromThisHost(request, responder, "unregistration")) return;
  const auto agent = request.Query("agentId");
  if (!agent || agent->empty()) {
    return responder.Error(400, "BAD_REQUEST", "agentId: query parameter is required",
                           {{"field", "agentId"}});
  }
  kademlia::store::UnregisterReason reason = kademlia::store::UnregisterReason::kShutdown;
  if (const auto text = request.Query("reason")) {
    auto parsed = kademlia::store::ParseUnregisterReason(*text);
    if (!parsed) {
      return responder.Error(400, "BAD_REQUEST", "reason: " + parsed.error().message,
                             {{"field", "reason"}});
    }
    reason = *parsed;
  }
  const std::string& skill_id = *request.Param("skillId");
  auto record = registry_.Unregister(daemon_.Now(), *agent, skill_id, reason);
  if (!record) {
    return responder.Error(404, "NOT_REGISTERED", record.error().message,
                           {{"field", "skillId"}, {"skillId", skill_id}});
  }
  responder.Json(200, {{"status", "UNREGISTERED"},
                       {"agentId", record->agent_id},
                       {"skillId", record->skill_id},
                       {"reason", kademlia::store::UnregisterReasonName(reason)}});
}

void SkillService::HandleList(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  auto query = api::QueryFromParams(request);
  if (!query) return BadField(responder, query.error(), "BAD_REQUEST");
  auto limit = SizeParam(request, "limit", kPageLimitDefault, kPageLimitMax);
  if (!limit) return BadField(responder, limit.error(), "BAD_REQUEST");
  auto offset = SizeParam(request, "offset", 0, SIZE_MAX / 2);
  if (!offset) return BadField(responder, offset.error(), "BAD_REQUEST");
  discovery::search::SearchOptions options;
  options.use_cache = request.Query("fresh").value_or("false") != "true";
  options.use_lan = request.Query("lan").value_or("true") != "false";
  options.use_skillcenter = request.Query("skillcenter").value_or("true") != "false";
  searcher_.Search(daemon_.Now(), *query, options,
                   [responder, context, limit = *limit,
                    offset = *offset](const discovery::search::SearchResult& answer) mutable {
                     std::optional<discovery::search::SearchResult> copy;
                     const discovery::search::SearchResult& result = Visible(answer, context, copy);
                     if (result.error && result.error != discovery::search::DiscError::kNoSkills) {
                       return DiscoveryError(responder, result);
                     }
                     responder.Send(http::HttpResponse::Text(
                         200, PageJson(result, offset, limit, true), "application/json"));
                   });
}

void SkillService::HandleSearch(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  auto body = discovery::ParseJsonObject(request.body);
  if (!body) return BadField(responder, body.error(), "BAD_REQUEST");
  auto query = api::QueryFromJson(*body);
  if (!query) return BadField(responder, query.error(), "BAD_REQUEST");
  size_t limit = kPageLimitDefault;
  size_t offset = 0;
  for (auto [name, field, max] :
       {std::tuple{"limit", &limit, kPageLimitMax}, {"offset", &offset, SIZE_MAX / 2}}) {
    auto it = body->find(name);
    if (it == body->end()) continue;
    if (!it->is_number_unsigned() || it->get<size_t>() > max) {
      return responder.Error(
          400, "BAD_REQUEST",
          std::string(name) + ": must be an integer from 0 to " + std::to_string(max),
          {{"field", name}});
    }
    *field = it->get<size_t>();
  }
  discovery::search::SearchOptions options;
  for (auto [name, field, inverted] : {std::tuple{"fresh", &options.use_cache, true},
                                       {"lan", &options.use_lan, false},
                                       {"skillcenter", &options.use_skillcenter, false}}) {
    auto it = body->find(name);
    if (it == body->end()) continue;
    if (!it->is_boolean()) {
      return responder.Error(400, "BAD_REQUEST", std::string(name) + ": must be true or false",
                             {{"field", name}});
    }
    *field = it->get<bool>() != inverted;
  }
  searcher_.Search(
      daemon_.Now(), *query, options,
      [responder, context, limit, offset](const discovery::search::SearchResult& answer) mutable {
        std::optional<discovery::search::SearchResult> copy;
        const discovery::search::SearchResult& result = Visible(answer, context, copy);
        if (result.error) return DiscoveryError(responder, result);
        responder.Send(http::HttpResponse::Text(200, PageJson(result, offset, limit, false),
                                                "application/json"));
      });
}

void SkillService::HandleGetSkill(const http::HttpRequest& request, http::Responder responder) {
  auth::AuthContext context;
  if (!auth_.Admit(request, responder, context)) return;
  const std::string id = *request.Param("id");
  SkillQuery query;
  query.skill_id = id;
  searcher_.Search(daemon_.Now(), query, discovery::search::SearchOptions{},
                   [responder, context, id](discovery::search::SearchResult result) mutable {
                     HidePrivate(result, context);
                     if (result.error) {
                       if (result.error == discovery::search::DiscError::kNoSkills) {
                         result.message = "no skill with id " + id + " is registered";
                       }
                       return DiscoveryError(responder, result);
                     }
                     responder.Json(200, SkillWithProviders(id, result));
                   });
}

}  // namespace skillnode::node
