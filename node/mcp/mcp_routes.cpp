#include "node/mcp/mcp_routes.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "node/invoke/invoke_routes.h"
#include "node/mcp/json_rpc.h"
#include "node/mcp/origin_check.h"

namespace skillnode::node::mcp {

using nlohmann::json;

namespace {

http::HttpResponse RpcError(int status, int code, const std::string& message,
                            const json& data = nullptr) {
  return http::HttpResponse::Text(status, Serialize(ErrorResponse(nullptr, code, message, data)),
                                  "application/json");
}

bool AcceptsEventStream(const std::string* accept) {
  return accept != nullptr && accept->find("text/event-stream") != std::string::npos;
}

// An answer preceded by the log notifications made while it was worked out, as the SSE stream
// Streamable HTTP allows for a POST's answer: one `message` event each, without ids (the
// stream is whole, so there is nothing to resume).
std::string EventStream(const std::vector<std::string>& notes, const std::string& answer) {
  std::string out;
  for (const std::string& note : notes) out += "event: message\ndata: " + note + "\n\n";
  out += "event: message\ndata: " + answer + "\n\n";
  return out;
}

// The answer to one POSTed message: its JSON-RPC answer (after the log notifications it made,
// as an event stream, when there are any), or 202 when it has none.
http::HttpResponse PostAnswer(int status, std::optional<std::string> text,
                              const std::vector<std::string>& notes,
                              const std::string& session_id) {
  http::HttpResponse response;
  if (text && !notes.empty()) {
    response = http::HttpResponse::Text(status, EventStream(notes, *text), "text/event-stream");
    response.headers.emplace_back("Cache-Control", "no-store");
  } else if (text) {
    response = http::HttpResponse::Text(status, std::move(*text), "application/json");
  } else {
    response.status = 202;
    response.content_type = "application/json";
  }
  if (!session_id.empty()) response.headers.emplace_back("Mcp-Session-Id", session_id);
  return response;
}

bool AcceptsJson(const std::string* accept) {
  if (accept == nullptr) return true;
  return accept->find("application/json") != std::string::npos ||
         accept->find("*/*") != std::string::npos ||
         accept->find("application/*") != std::string::npos;
}

}  // namespace

McpRoutes::McpRoutes(Daemon& daemon, SkillService& skills)
    : daemon_(daemon),
      skills_(skills),
      tools_([this](ApiRequest request, ApiDone done) { Fetch(std::move(request), done); }),
      sessions_(daemon.config().node.mcp.sessions_max,
                daemon.config().node.mcp.session_idle_timeout) {
  http::Router& router = daemon_.router();
  router.Add("POST", "/mcp", [this](const http::HttpRequest& request, http::Responder responder) {
    HandlePost(request, std::move(responder));
  });
  router.Add("DELETE", "/mcp", [this](const http::HttpRequest& request, http::Responder responder) {
    HandleDelete(request, std::move(responder));
  });
  router.Add("GET", "/mcp", [](const http::HttpRequest&, http::Responder responder) {
    http::HttpResponse response =
        RpcError(405, kInvalidRequest, "this server sends no messages of its own: no GET stream");
    response.headers.emplace_back("Allow", "POST, DELETE");
    responder.Send(std::move(response));
  });
  daemon_.AddNodeInfo("mcp", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
}

// Origin, size and Accept: the checks every POST and DELETE passes first.
bool McpRoutes::Admit(const http::HttpRequest& request, http::Responder& responder) {
  const config::McpConfig& config = daemon_.config().node.mcp;
  if (!OriginAllowed(request.Header("origin"), config.allowed_origins)) {
    ++counters_.refused_origin;
    responder.Send(RpcError(
        403, kInvalidRequest,
        "Origin " + *request.Header("origin") + " is not allowed (node.mcp.allowedOrigins)"));
    return false;
  }
  if (request.body.size() > config.body_bytes_max) {
    ++counters_.bad_request;
    responder.Send(RpcError(413, kInvalidRequest,
                            "a body of " + std::to_string(request.body.size()) +
                                " bytes is over node.mcp.maxBodyBytes (" +
                                std::to_string(config.body_bytes_max) + ")"));
    return false;
  }
  if (!AcceptsJson(request.Header("accept"))) {
    ++counters_.bad_request;
    responder.Send(RpcError(406, kInvalidRequest, "Accept must allow application/json"));
    return false;
  }
  if (request.Header("authorization") != nullptr) {
    auth::AuthContext context;
    if (!skills_.authenticator().Admit(request, responder, context)) return false;
  }
  return true;
}

CallerInfo McpRoutes::Caller(const http::HttpRequest& request) const {
  CallerInfo caller;
  if (const std::string* header = request.Header("authorization")) caller.authorization = *header;
  caller.peer = request.peer;
  const transport::Duration response_timeout = daemon_.config().node.http.response_timeout;
  const transport::TimePoint arrived = daemon_.Now();
  const Daemon* daemon = &daemon_;
  caller.run_timeout_ms = [daemon, arrived, response_timeout]() -> std::optional<int64_t> {
    const transport::Duration left = response_timeout - kRunMargin - (daemon->Now() - arrived);
    const transport::Duration most = response_timeout - invoke::kResponseMargin;
    return std::max<int64_t>(1, static_cast<int64_t>(transport::ToMillis(std::min(left, most))));
  };
  return caller;
}

void McpRoutes::HandlePost(const http::HttpRequest& request, http::Responder responder) {
  if (!Admit(request, responder)) return;
  ++counters_.messages;
  const std::string* version = request.Header("mcp-protocol-version");
  // Any supported version is served, whichever one the session negotiated.
  if (version != nullptr && !IsSupportedVersion(*version)) {
    ++counters_.bad_request;
    return responder.Send(RpcError(400, kInvalidRequest,
                                   "MCP-Protocol-Version " + *version +
                                       " is not supported; the supported versions are " +
                                       SupportedVersions(),
                                   {{"requested", *version}, {"supported", kProtocolVersions}}));
  }
  bool too_deep = false;
  const json message = ParseMessage(request.body, too_deep);
  if (too_deep || message.is_discarded()) {
    ++counters_.bad_request;
    return responder.Send(RpcError(400, too_deep ? kInvalidRequest : kParseError,
                                   too_deep ? "arrays and objects nest deeper than " +
                                                  std::to_string(kJsonDepthMax) + " levels"
                                            : std::string("the body is not JSON")));
  }
  const Classified kind = Classify(message);
  // A batch is answered 200 whatever its items say; a single invalid message 400.
  const int answer_status = kind.kind == MessageKind::kInvalid && !message.is_array() ? 400 : 200;
  // Log notifications ride on this answer's SSE stream; a client that takes no event stream
  // gets the answer alone.
  auto notes = std::make_shared<std::vector<std::string>>();
  const bool streams = AcceptsEventStream(request.Header("accept"));
  auto notify = [notes, streams](std::string note) {
    if (streams) notes->push_back(std::move(note));
  };
  auto send = [responder, answer_status, notes](std::optional<std::string> text,
                                                const std::string& session_id) mutable {
    responder.Send(PostAnswer(answer_status, std::move(text), *notes, session_id));
  };
  const std::string* session_id = request.Header("mcp-session-id");
  const CallerInfo caller = Caller(request);
  if (session_id == nullptr && kind.kind == MessageKind::kRequest &&
      message["method"] == "initialize") {
    auto session = std::make_unique<McpSession>(tools_, SessionOptions{});
    McpSession& opened = *session;
    std::optional<std::string> answer;
    opened.HandleText(
        request.body, [&answer](std::optional<std::string> text) { answer = text; },
        &caller);  // initialize answers at once
    if (!opened.initialized()) return send(std::move(answer), "");
    const std::string id = sessions_.Create(daemon_.Now(), std::move(session));
    return send(std::move(answer), id);
  }
  if (session_id == nullptr) {
    ++counters_.bad_request;
    return responder.Send(RpcError(
        400, kInvalidRequest, "the Mcp-Session-Id header is required (send initialize first)"));
  }
  McpSession* session = sessions_.Find(daemon_.Now(), *session_id);
  if (session == nullptr) {
    ++counters_.unknown_session;
    return responder.Send(
        RpcError(404, kInvalidRequest, "no session " + *session_id + ": initialize again"));
  }
  session->HandleText(
      request.body, [send](std::optional<std::string> text) mutable { send(std::move(text), ""); },
      &caller, notify);
}

void McpRoutes::HandleDelete(const http::HttpRequest& request, http::Responder responder) {
  if (!Admit(request, responder)) return;
  const std::string* session_id = request.Header("mcp-session-id");
  if (session_id == nullptr) {
    return responder.Send(
        RpcError(400, kInvalidRequest, "the Mcp-Session-Id header names the session to end"));
  }
  if (!sessions_.Erase(*session_id)) {
    ++counters_.unknown_session;
    return responder.Send(RpcError(404, kInvalidRequest, "no session " + *session_id));
  }
  http::HttpResponse ended;
  ended.status = 204;
  responder.Send(std::move(ended));
}

void McpRoutes::Fetch(ApiRequest api, ApiDone done) {
  http::HttpRequest inner;
  inner.method = api.method;
  inner.target = api.target;
  const size_t question = api.target.find('?');
  inner.path = api.target.substr(0, question);
  inner.query = question == std::string::npos ? "" : api.target.substr(question + 1);
  inner.headers.emplace_back("accept", "application/json, text/markdown");
  if (!api.body.empty()) inner.headers.emplace_back("content-type", "application/json");
  if (!api.authorization.empty()) inner.headers.emplace_back("authorization", api.authorization);
  inner.body = std::move(api.body);
  inner.peer = api.peer;
  auto slot = std::make_shared<http::ResponseSlot>();
  slot->deliver = [alive = std::weak_ptr<bool>(alive_), done](http::HttpResponse response) {
    if (alive.expired()) return;
    ApiResponse answer;
    answer.status = response.status;
    answer.content_type = std::move(response.content_type);
    answer.body = std::move(response.body);
    done(std::move(answer));
  };
  daemon_.router().Dispatch(inner, http::Responder(std::move(slot)));
}

json McpRoutes::Info() const {
  const config::McpConfig& config = daemon_.config().node.mcp;
  return {{"sessions", sessions_.size()},
          {"sessionsMax", config.sessions_max},
          {"sessionIdleTimeoutMs",
           static_cast<int64_t>(transport::ToMillis(config.session_idle_timeout))},
          {"bodyBytesMax", config.body_bytes_max},
          {"sessionsEvicted", sessions_.evicted()},
          {"sessionsExpired", sessions_.expired()},
          {"messages", counters_.messages},
          {"refusedOrigin", counters_.refused_origin}};
}

void McpRoutes::WriteMetrics(http::PrometheusWriter& out) const {
  out.Gauge("skillnode_mcp_sessions", "MCP sessions open at /mcp.",
            static_cast<double>(sessions_.size()));
  out.Family("skillnode_mcp_sessions_ended_total", "counter",
             "MCP sessions ended by the node, by why: evicted (maxSessions) or expired.");
  out.Sample("skillnode_mcp_sessions_ended_total", {{"reason", "evicted"}},
             static_cast<double>(sessions_.evicted()));
  out.Sample("skillnode_mcp_sessions_ended_total", {{"reason", "expired"}},
             static_cast<double>(sessions_.expired()));
  out.Family("skillnode_mcp_refused_total", "counter",
             "POST and DELETE /mcp requests refused before their message was read, by reason.");
  out.Sample("skillnode_mcp_refused_total", {{"reason", "origin"}},
             static_cast<double>(counters_.refused_origin));
  out.Sample("skillnode_mcp_refused_total", {{"reason", "unknown_session"}},
             static_cast<double>(counters_.unknown_session));
  out.Sample("skillnode_mcp_refused_total", {{"reason", "bad_request"}},
             static_cast<double>(counters_.bad_request));
  out.Counter("skillnode_mcp_messages_total", "Messages POSTed to /mcp past the checks.",
              static_cast<double>(counters_.messages));
}

std::unique_ptr<McpRoutes> AddMcpRoutes(Daemon& daemon, SkillService& skills) {
  if (!daemon.config().node.mcp.enabled) return nullptr;
  return std::make_unique<McpRoutes>(daemon, skills);
}

}  // namespace skillnode::node::mcp
