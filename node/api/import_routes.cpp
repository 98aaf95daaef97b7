// POST /api/import (import_routes.h).
#include "node/api/import_routes.h"

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

ImportRoutes::ImportRoutes(Daemon& daemon, importers::ImportService& imports) : imports_(imports) {
  daemon.router().Add("POST", "/api/import",
                      [this](const http::HttpRequest& request, http::Responder responder) {
                        Handle(request, std::move(responder));
                      });
  daemon.router().Add("GET", "/api/imports",
                      [this](const http::HttpRequest&, http::Responder responder) {
                        responder.Json(200, imports_.Followed());
                      });
  daemon.router().Add("DELETE", "/api/imports",
                      [this](const http::HttpRequest& request, http::Responder responder) {
                        HandleUnfollow(request, std::move(responder));
                      });
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
  if (body->contains("document")) import.document = (*body)["document"].get<std::string>();
  if (body->contains("type")) {
    auto type = importers::ParseImportType((*body)["type"].get<std::string>());
    if (!type) return Invalid(responder, "type", type.error().message);
    import.type = *type;
  }
  auto started = imports_.Import(std::move(import), [responder](importers::ImportReport report) {
    http::Responder answer = responder;
    if (report.error) {
      answer.Error(502, "IMPORT_FAILED", report.error->message, report.ToJson());
      return;
    }
    answer.Json(200, report.ToJson());
  });
  if (started) return;
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
