// The MCP Registry's read API on every node (docs/formats.md "MCP Registry API"), over the MCP
// servers of the whole network (FormatRecords, kMcpServer):
//
//   GET  /v0.1/servers[?cursor=&limit=&search=&updated_since=&version=&include_deleted=]
//   GET  /v0.1/servers/{name}/versions[?include_deleted=]        newest first; 404 if none
//   GET  /v0.1/servers/{name}/versions/{version|latest}[?include_deleted=]   404 if none
//   POST /v0.1/publish                                           501, naming POST /api/skills
//   GET  /mcp-registry/servers/{name}/server.json[?version=]     the bare server.json (latest
//                                                                by default): the AI Catalog's
//                                                                MCP entries point here
//
// The same routes answer under /v0 (the registry's development API, which behaves the same and
// which older clients call). {name} is URL-encoded ("com.example%2Fweather"). Listings are
// ServerList {servers: [ServerResponse], metadata: {count, nextCursor when more}}, mapped by
// mcp_server_json.h and paged by server_listing.h. Private servers appear only to an
// authenticated request (node/auth); a bad token is 401. Bad parameters are 400s naming the
// parameter; a node running its maximum of lookups answers 503 BUSY.
#ifndef SKILLNODE_NODE_FORMATS_MCP_REGISTRY_ROUTES_H_
#define SKILLNODE_NODE_FORMATS_MCP_REGISTRY_ROUTES_H_

#include <functional>

#include "node/auth/authenticator.h"
#include "node/formats/format_records.h"
#include "node/formats/mcp_registry/server_listing.h"
#include "node/http/router.h"
#include "transport/clock.h"

namespace skillnode::node::formats::mcp_registry {

class McpRegistryRoutes {
 public:
  // Adds the routes to `router`; every reference must outlive this.
  McpRegistryRoutes(http::Router& router, const FormatRecords& records, auth::Authenticator& auth,
                    std::function<transport::TimePoint()> now);
  McpRegistryRoutes(const McpRegistryRoutes&) = delete;
  McpRegistryRoutes& operator=(const McpRegistryRoutes&) = delete;

 private:
  void HandleList(const http::HttpRequest& request, http::Responder responder);
  void HandleVersions(const http::HttpRequest& request, http::Responder responder);
  void HandleVersion(const http::HttpRequest& request, http::Responder responder);
  void HandleServerJson(const http::HttpRequest& request, http::Responder responder);
  // Admits the request and gathers the MCP servers it may see; `then` gets the listing.
  void WithListing(
      const http::HttpRequest& request, http::Responder responder,
      std::function<void(const ServerListing&, bool authenticated, http::Responder&)> then);

  const FormatRecords& records_;
  auth::Authenticator& auth_;
  std::function<transport::TimePoint()> now_;
};

}  // namespace skillnode::node::formats::mcp_registry

#endif  // SKILLNODE_NODE_FORMATS_MCP_REGISTRY_ROUTES_H_
