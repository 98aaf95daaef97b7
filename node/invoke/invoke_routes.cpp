#include "node/invoke/invoke_routes.h"

#include <algorithm>
#include <string>
#include <utility>

#include "node/spd_logger.h"

namespace skillnode::node::invoke {
namespace {

using nlohmann::json;

std::string Trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return std::string(text);
}

// The bearer token of the request (already checked by the Authenticator), or "".
std::string BearerToken(const http::HttpRequest& request) {
  const std::string* header = request.Header("authorization");
  if (header == nullptr || header->size() < 7) return "";
  std::string scheme = header->substr(0, 7);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return scheme == "bearer " ? Trimmed(std::string_view(*header).substr(7)) : "";
}

void Bad(http::Responder& responder, const std::string& field, const std::string& reason) {
  responder.Error(400, "BAD_REQUEST", field + ": " + reason, {{"field", field}});
}

void Busy(http::Responder& responder, const std::string& message) {
  http::HttpResponse response = http::HttpResponse::Error(503, "INVOKE_BUSY", message,
                                                          {{"runningMax", kInvocationsRunningMax}});
  response.headers.emplace_back("Retry-After", "1");
  responder.Send(std::move(response));
}

}  // namespace

// One request between its arrival and the Invoker's start.
struct InvokeRoutes::Request {
  http::Responder responder;
  http::HttpRequest who;  // the headers and peer only: for Require() after the lookup
  std::string skill_id;
  std::optional<std::string> agent_id;
  json input;
  InvokeOptions options;
  transport::TimePoint deadline_at{};
  auth::AuthContext context;
  std::string agent_chosen;
};

InvokeRoutes::InvokeRoutes(Daemon& daemon, SkillService& skills)
    : daemon_(daemon),
      skills_(skills),
      http_(daemon.env().loop(),
            transport::uv::HttpClientConfig{kInvocationsRunningMax, kInvocationsRunningMax}),
      invoker_(daemon.env().loop(), http_) {
  daemon_.router().Add("POST", "/api/skills/{id}/invoke",
                       [this](const http::HttpRequest& request, http::Responder responder) {
                         Handle(request, std::move(responder));
                       });
  daemon_.AddNodeInfo("invoke", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  daemon_.AddCloseHook([this] {
    invoker_.Close();
    http_.Close();
  });
}

InvokeRoutes::~InvokeRoutes() {
  invoker_.Close();
  http_.Close();
}

transport::Duration InvokeRoutes::deadline_max() const {
  const transport::Duration response = daemon_.config().node.http.response_timeout;
  return std::max(response - kResponseMargin, response / 2);
}

void InvokeRoutes::Handle(const http::HttpRequest& request, http::Responder responder) {
  auto call = std::make_shared<Request>();
  call->responder = responder;
  if (!skills_.authenticator().Admit(request, call->responder, call->context)) return;
  if (invoker_.closed()) {
    return responder.Error(503, "INVOKE_CANCELLED", "the node is shutting down");
  }
  if (invoker_.running() >= kInvocationsRunningMax) {
    ++busy_;
    return Busy(responder, std::to_string(kInvocationsRunningMax) +
                               " invocations are running on this node; retry shortly");
  }
  auto body = discovery::ParseJsonObject(request.body);
  if (!body) return BadField(responder, body.error(), "BAD_REQUEST");
  const int64_t deadline_max_ms = static_cast<int64_t>(transport::ToMillis(deadline_max()));
  call->options.wait = true;
  call->options.deadline = deadline_max();
  bool has_input = false;
  for (auto& [key, value] : body->items()) {
    if (key == "input") {
      has_input = true;
      call->input = std::move(value);
    } else if (key == "agentId") {
      if (!value.is_string() || value.get<std::string>().empty()) {
        return Bad(responder, key, "must be a non-empty string");
      }
      call->agent_id = value.get<std::string>();
    } else if (key == "wait") {
      if (!value.is_boolean()) return Bad(responder, key, "must be true or false");
      call->options.wait = value.get<bool>();
    } else if (key == "timeoutMs") {
      if (!value.is_number_integer() || value.get<int64_t>() < 1 ||
          value.get<int64_t>() > deadline_max_ms) {
        return Bad(responder, key,
                   "must be an integer from 1 to " + std::to_string(deadline_max_ms) +
                       " (node.http.responseTimeout less " +
                       std::to_string(static_cast<int64_t>(transport::ToMillis(kResponseMargin))) +
                       " ms)");
      }
      call->options.deadline = transport::Millis(value.get<int64_t>());
    } else if (key == "maxBodyBytes") {
      if (!value.is_number_integer() || value.get<int64_t>() < 1 ||
          value.get<int64_t>() > static_cast<int64_t>(kBodyBytesMaxLimit)) {
        return Bad(responder, key,
                   "must be an integer from 1 to " + std::to_string(kBodyBytesMaxLimit));
      }
      call->options.body_bytes_max = value.get<size_t>();
    } else {
      return Bad(responder, key,
                 "is not a known field (input, agentId, wait, timeoutMs, "
                 "maxBodyBytes)");
    }
  }
  if (!has_input) return Bad(responder, "input", "is required (any JSON value)");
  call->deadline_at = daemon_.Now() + call->options.deadline;
  call->skill_id = *request.Param("id");
  call->who.method = request.method;
  call->who.path = request.path;
  call->who.headers = request.headers;
  call->who.peer = request.peer;
  discovery::SkillQuery query;
  query.skill_id = call->skill_id;
  skills_.searcher().Search(
      daemon_.Now(), query, discovery::search::SearchOptions{},
      [this, call](discovery::search::SearchResult result) { Run(call, std::move(result)); });
}

void InvokeRoutes::Run(std::shared_ptr<Request> call, discovery::search::SearchResult result) {
  http::Responder& responder = call->responder;
  HidePrivate(result, call->context);
  if (result.error) {
    if (result.error == discovery::search::DiscError::kNoSkills) {
      result.message = "no skill with id " + call->skill_id + " is registered";
    }
    return DiscoveryError(responder, result);
  }
  const discovery::search::Found* chosen = &result.skills.front();
  if (call->agent_id) {
    chosen = nullptr;
    std::string agents;
    for (const discovery::search::Found& found : result.skills) {
      if (found.record().agent_id == *call->agent_id) chosen = &found;
      agents += (agents.empty() ? "" : ", ") + found.record().agent_id;
    }
    if (chosen == nullptr) {
      return responder.Error(404, "DISC_002",
                             "skill " + call->skill_id + " has no provider with agentId " +
                                 *call->agent_id + " (its providers: " + agents + ")",
                             {{"kind", "not_found"}, {"skillId", call->skill_id}});
    }
  }
  const kademlia::store::SkillRecord& record = chosen->record();
  const discovery::Access access = discovery::AccessOf(record);
  if (access != discovery::Access::kPublic && !call->context.authenticated &&
      !skills_.authenticator().Require(call->who, responder, call->context)) {
    return;
  }
  if (invoker_.closed()) {
    return responder.Error(503, "INVOKE_CANCELLED", "the node is shutting down");
  }
  if (invoker_.running() >= kInvocationsRunningMax) {
    ++busy_;
    return Busy(responder, std::to_string(kInvocationsRunningMax) +
                               " invocations are running on this node; retry shortly");
  }
  const transport::Duration left = call->deadline_at - daemon_.Now();
  if (left <= transport::Duration::zero()) {
    return Answer(*call, tl::unexpected(InvokeError{InvokeErrorKind::kTimeout,
                                                    "finding the skill took the whole deadline",
                                                    std::nullopt,
                                                    {}}));
  }
  call->options.deadline = left;
  call->agent_chosen = record.agent_id;
  InvokeTarget target;
  target.skill_id = record.skill_id;
  target.agent_id = record.agent_id;
  target.endpoint = record.endpoint;
  target.access = std::string(discovery::AccessName(access));
  target.token = BearerToken(call->who);
  if (record.descriptor) {
    target.input_schema = record.descriptor->input_schema;
    target.output_schema = record.descriptor->output_schema;
  }
  LogAt(daemon_.logger(), transport::LogLevel::kDebug,
        "invoking skill " + record.skill_id + " of agent " + record.agent_id + " at " +
            record.endpoint);
  invoker_.Start(std::move(target), std::move(call->input), call->options, nullptr,
                 [this, call](InvokeResult outcome) { Answer(*call, std::move(outcome)); });
}

void InvokeRoutes::Answer(const Request& call, InvokeResult result) {
  http::Responder responder = call.responder;
  if (result) {
    json body = ToJson(*result);
    body["skillId"] = call.skill_id;
    body["agentId"] = call.agent_chosen;
    return responder.Json(result->status == "completed" ? 200 : 202, body);
  }
  const InvokeError& error = result.error();
  json details = ToJson(error);
  details.erase("message");
  details["skillId"] = call.skill_id;
  if (!call.agent_chosen.empty()) details["agentId"] = call.agent_chosen;
  LogAt(daemon_.logger(), transport::LogLevel::kDebug,
        "invocation of skill " + call.skill_id + " failed: " + error.message);
  responder.Error(HttpStatusOf(error.kind), ErrorCodeOf(error.kind), error.message, details);
}

json InvokeRoutes::Info() const {
  const Invoker::Stats& stats = invoker_.stats();
  return {{"running", invoker_.running()},
          {"runningMax", kInvocationsRunningMax},
          {"deadlineMaxMs", static_cast<int64_t>(transport::ToMillis(deadline_max()))},
          {"started", stats.started},
          {"completed", stats.completed},
          {"accepted", stats.accepted},
          {"busy", busy_}};
}

void InvokeRoutes::WriteMetrics(http::PrometheusWriter& out) const {
  const Invoker::Stats& stats = invoker_.stats();
  out.Gauge("skillnode_invocations_running", "Skill invocations running on this node.",
            static_cast<double>(invoker_.running()));
  out.Family("skillnode_invocations_total", "counter",
             "Skill invocations through POST /api/skills/{id}/invoke, by how they ended.");
  out.Sample("skillnode_invocations_total", {{"outcome", "completed"}},
             static_cast<double>(stats.completed));
  out.Sample("skillnode_invocations_total", {{"outcome", "accepted"}},
             static_cast<double>(stats.accepted));
  for (size_t i = 0; i < stats.failed.size(); ++i) {
    const auto kind = static_cast<InvokeErrorKind>(i);
    out.Sample("skillnode_invocations_total", {{"outcome", std::string(InvokeErrorKindName(kind))}},
               static_cast<double>(stats.failed[i]));
  }
  out.Sample("skillnode_invocations_total", {{"outcome", "busy"}}, static_cast<double>(busy_));
  out.Counter("skillnode_invocation_polls_total", "Status requests sent to providers.",
              static_cast<double>(stats.polls));
}

std::unique_ptr<InvokeRoutes> AddInvokeRoutes(Daemon& daemon, SkillService& skills) {
  return std::make_unique<InvokeRoutes>(daemon, skills);
}

}  // namespace skillnode::node::invoke
