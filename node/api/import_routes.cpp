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

ImportRoutes::ImportRoutes(Daemon& daemon, importers::ImportService& imports,
                           publisher::PublisherDomains& domains)
    : imports_(imports),
      prover_(std::make_shared<const importers::SourceDomainProver>(
          [&domains](std::string_view domain, const kademlia::PublicKey& key,
                     std::function<void(publisher::DomainCheck)> done) {
            domains.Check(domain, key, std::move(done));
          },
          daemon.identity().public_key())) {
  daemon.router().Add("POST", "/api/import",
                      [this](const http::HttpRequest& request, http::Responder responder) {
                        Handle(request, std::move(responder));
                      });
}

void ImportRoutes::Handle(const http::HttpRequest& request, http::Responder responder) {
  if (!RequestFromThisHost(request, responder, "import")) return;
  auto body = ParseBoundedJson(request.body, kImportBodyDepthMax, "the request body");
  if (!body) return Invalid(responder, "body", body.error().message);
  if (!body->is_object()) return Invalid(responder, "body", "expected a JSON object");
  importers::ImportRequest import;
  for (const auto& [key, value] : body->items()) {
    if (key != "url" && key != "type" && key != "document") {
      return Invalid(responder, key, "is not a field of an import (url, type, document)");
    }
    if (!value.is_string()) return Invalid(responder, key, "expected a string");
  }
  import.url = body->value("url", "");
  import.domains = prover_;
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
