// POST /api/import (docs/api.md "Importing"): imports an A2A Agent Card, an MCP Registry, an
// Agent Skills index or an AI Catalog into this node's registry, through the ImportService.
//
//   body {"url": "https://agent.example.org/", "type": "a2a"}          fetched by the node
//   body {"document": "<the source's text>", "url": "file:card.json"}  given by the client
//                                                                      (`skillnode import FILE`)
//   `type` (a2a, mcp-registry, agent-skills, ai-catalog) is optional: without it the URL's
//   well-known documents, or the document's shape, decide.
//
// Waits import.answerWait (config::ImportAnswerWait, under node.http.responseTimeout) for the
// report: 200 with the ImportReport (import_report.h, with the import's `id`), entry errors
// included; 502 IMPORT_FAILED with the report when the source itself could not be read. An
// import still running then is answered 202 Accepted with {"id", "state": "running",
// "status": "/api/imports/<id>", ...} and that path as Location, and goes on; its report is
// there once it ends. 400 INVALID for a bad body; 503 BUSY when import.maxRunning imports run;
// 503 UNAVAILABLE without a blob store. Only from this host, as registration is: an import
// registers skills.
//
// GET /api/imports/{id} answers an import's state and, once it has ended, its report (404
// NOT_FOUND for an id unknown or forgotten past import.maxReports); GET /api/imports lists the
// followed sources; DELETE /api/imports?url= stops following one (docs/api.md).
//
// Loop thread only; the requests waiting for a report are answered 202 by a stepper of the
// daemon's.
#ifndef SKILLNODE_NODE_API_IMPORT_ROUTES_H_
#define SKILLNODE_NODE_API_IMPORT_ROUTES_H_

#include <map>
#include <string>

#include "node/config/config.h"
#include "node/daemon.h"
#include "node/importers/import_service.h"

namespace skillnode::node::api {

class ImportRoutes {
 public:
  // Adds the routes to `daemon`'s router; both must outlive this object.
  ImportRoutes(Daemon& daemon, importers::ImportService& imports);
  ImportRoutes(const ImportRoutes&) = delete;
  ImportRoutes& operator=(const ImportRoutes&) = delete;

 private:
  // A POST /api/import whose report has not come: answered 202 at `at` unless it comes first.
  struct Waiting {
    transport::TimePoint at;
    http::Responder responder;
  };

  void Handle(const http::HttpRequest& request, http::Responder responder);
  void HandleOutcome(const http::HttpRequest& request, http::Responder responder);
  void HandleUnfollow(const http::HttpRequest& request, http::Responder responder);
  transport::TimePoint NextAcceptedAt() const;
  // Answers 202 for each import whose wait has passed by `now`.
  void AnswerAccepted(transport::TimePoint now);

  Daemon& daemon_;
  importers::ImportService& imports_;
  // By import id; at most import.maxRunning (each is a running import).
  std::map<std::string, Waiting> waiting_;
};

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_IMPORT_ROUTES_H_
