// POST /api/import, GET /api/imports/{id} and the followed sources' routes (import_routes.h).
#include "node/api/import_routes.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "node/bounded_json.h"
#include "node/skill_answers.h"

namespace skillnode::node::api {
namespace {

constexpr size_t kImportBodyDepthMax = 8;

void Invalid(http::Responder& responder, const std::string& field, const std::string& message) {
  responder.Error(400, "INVALID", field + ": " + message, {{"field", field}});
}

}  // namespace

ImportRoutes::ImportRoutes(Daemon& daemon, importers::ImportService& imports)
    : daemon_(daemon), imports_(imports) {
  daemon.router().Add("POST", "/api/import",
                      [this](const http::HttpRequest& request, http::Responder responder) {
                        Handle(request, std::move(responder));
                      });
  daemon.router().Add("GET", "/api/imports",
                      [this](const http::HttpRequest&, http::Responder responder) {
                        responder.Json(200, imports_.Followed());
                      });
  daemon.router().Add("GET", "/api/imports/{id}",
                      [this](const http::HttpRequest& request, http::Responder responder) {
                        HandleOutcome(request, std::move(responder));
                      });
  daemon.router().Add("DELETE", "/api/imports",
                      [this](const http::HttpRequest& request, http::Responder responder) {
                        HandleUnfollow(request, std::move(responder));
                      });
  daemon.AddStepper({[this] { return NextAcceptedAt(); },
                     [this](transport::TimePoint now) { AnswerAccepted(now); }});
}

void ImportRoutes::HandleOutcome(const http::HttpRequest& request, http::Responder responder) {
  const std::string* id = request.Param("id");
  assert(id != nullptr);  // the route's pattern names it
  const importers::ImportOutcome* outcome = imports_.Outcome(*id);
  if (outcome == nullptr) {
    return responder.Error(404, "NOT_FOUND",
                           "no import '" + *id +
                               "' on this node: it was never started here, or it finished before " +
                               "the last " + std::to_string(daemon_.config().import.reports_max) +
                               " and its report is forgotten (import.maxReports)",
                           {{"id", *id}});
  }
  responder.Json(200, outcome->ToJson());
}

transport::TimePoint ImportRoutes::NextAcceptedAt() const {
  transport::TimePoint next = transport::kTimeNever;
  for (const auto& [id, waiting] : waiting_) next = std::min(next, waiting.at);
  return next;
}

void ImportRoutes::AnswerAccepted(transport::TimePoint now) {
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    if (it->second.at > now) {
      ++it;
      continue;
    }
    const importers::ImportOutcome* outcome = imports_.Outcome(it->first);
    // Waiting only while running: the report's callback ends the wait.
    assert(outcome != nullptr && outcome->state == importers::ImportState::kRunning);
    const std::string status = "/api/imports/" + it->first;
    nlohmann::json body = outcome->ToJson();
    body["status"] = status;
    http::HttpResponse accepted = http::HttpResponse::Json(202, body);
    accepted.headers.emplace_back("Location", status);
    it->second.responder.Send(std::move(accepted));
    it = waiting_.erase(it);
  }
}

void ImportRoutes::HandleUnfollow(const http::HttpRequest& request, http::Responder responder) {
  if (!RequestFromThisHost(request, responder, "stop following an import source")) return;
  const std::optional<std::string> url = request.Query("url");
  if (!url || url->empty()) return Invalid(responder, "url", "name the followed source: ?url=");
  auto removed = imports_.Unfollow(*url);
  if (!removed) return responder.Error(404, "NOT_FOUND", removed.error().message, {{"url", *url}});
  responder.Json(200, {{"url", *url}, {"unregistered", *removed}});
}

void ImportRoutes::Handle(const http::HttpRequest& request, http::Responder responder) {
  if (!RequestFromThisHost(request, responder, "import")) return;
  auto body = ParseBoundedJson(request.body, kImportBodyDepthMax, "the request body");
  if (!body) return Invalid(responder, "body", body.error().message);
  if (!body->is_object()) return Invalid(responder, "body", "expected a JSON object");
  importers::ImportRequest import;
  for (const auto& [key, value] : body->items()) {
    if (key == "follow") {
      if (!value.is_boolean()) return Invalid(responder, key, "expected true or false");
      import.follow = value.get<bool>();
      continue;
    }
    if (key != "url" && key != "type" && key != "document") {
      return Invalid(responder, key, "is not a field of an import (url, type, document, follow)");
    }
    if (!value.is_string()) return Invalid(responder, key, "expected a string");
  }
  import.url = body->value("url", "");
  if (body->contains("document")) {
    import.document = (*body)["document"].get<std::string>();
    // Every imported record keeps its source (origin.sourceUrl).
    if (import.url.empty()) {
      return Invalid(responder, "url",
                     "name where the document comes from (e.g. \"file:card.json\"): every "
                     "record imported from it keeps that source");
    }
  }
  if (body->contains("type")) {
    auto type = importers::ParseImportType((*body)["type"].get<std::string>());
    if (!type) return Invalid(responder, "type", type.error().message);
    import.type = *type;
  }
  auto started =
      imports_.Import(std::move(import), [this, responder](importers::ImportReport report) {
        waiting_.erase(report.id);
        http::Responder answer = responder;  // answered already when the wait ran out
        if (report.error) {
          answer.Error(502, "IMPORT_FAILED", report.error->message, report.ToJson());
          return;
        }
        answer.Json(200, report.ToJson());
      });
  if (started) {
    if (responder.answered()) return;  // the report came at once (nothing to fetch)
    waiting_[*started] =
        Waiting{daemon_.Now() + config::ImportAnswerWait(daemon_.config()), responder};
    return;
  }
  switch (started.error().code) {
    case transport::ErrorCode::kRefused:
      return responder.Error(503, "BUSY", started.error().message);
    case transport::ErrorCode::kInvalidArgument:
      return Invalid(responder, "url", started.error().message);
    default:
      return responder.Error(503, "UNAVAILABLE", started.error().message);
  }
}

}  // namespace skillnode::node::api
