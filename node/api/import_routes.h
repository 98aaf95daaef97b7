// POST /api/import (docs/api.md "Importing"): imports an A2A Agent Card, an MCP Registry, an
// Agent Skills index or an AI Catalog into this node's registry, through the ImportService.
//
//   body {"url": "https://agent.example.org/", "type": "a2a"}          fetched by the node
//   body {"document": "<the source's text>", "url": "file:card.json"}  given by the client
//                                                                      (`skillnode import FILE`)
//   `type` (a2a, mcp-registry, agent-skills, ai-catalog) is optional: without it the URL's
//   well-known documents, or the document's shape, decide.
//
// Answers 200 with the ImportReport (import_report.h) once the import has ended, entry errors
// included; 502 IMPORT_FAILED with the report when the source itself could not be read; 400
// INVALID for a bad body; 503 BUSY when import.maxRunning imports run; 503 UNAVAILABLE without a
// blob store. Only from this host, as registration is: an import registers skills.
//
// GET /api/imports lists the followed sources; DELETE /api/imports?url= stops following one
// (docs/api.md).
#ifndef SKILLNODE_NODE_API_IMPORT_ROUTES_H_
#define SKILLNODE_NODE_API_IMPORT_ROUTES_H_

#include <memory>

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
  void Handle(const http::HttpRequest& request, http::Responder responder);
  void HandleUnfollow(const http::HttpRequest& request, http::Responder responder);

  importers::ImportService& imports_;
};

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_IMPORT_ROUTES_H_
