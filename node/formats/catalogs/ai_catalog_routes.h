// The AI Catalog's routes (docs/formats.md "AI Catalog"):
//
//   GET /.well-known/ai-catalog.json   the catalog (ai_catalog.h) of this node's agents and of
//                                      the network's MCP servers and Agent Skills
//                                      (FormatRecords, both formats gathered side by side), as
//                                      application/ai-catalog+json with CORS and Cache-Control
//   GET /                              a small JSON index of the node's documents, with
//                                      Link: </.well-known/ai-catalog.json>; rel="ai-catalog",
//                                      the catalog's link-relation discovery
//
// Private skills (and the agents only they name) appear only to an authenticated request; a
// bad token is 401; a node running its maximum of lookups answers 503 BUSY.
#ifndef SKILLNODE_NODE_FORMATS_AI_CATALOG_ROUTES_H_
#define SKILLNODE_NODE_FORMATS_AI_CATALOG_ROUTES_H_

#include <functional>
#include <string>

#include "discovery/registry/registry.h"
#include "kademlia/identity.h"
#include "node/auth/authenticator.h"
#include "node/config/config.h"
#include "node/formats/format_records.h"
#include "node/http/router.h"
#include "transport/clock.h"

namespace skillnode::node::formats::catalogs {

// The Link header value GET / carries.
inline constexpr std::string_view kAiCatalogLink =
    "</.well-known/ai-catalog.json>; rel=\"ai-catalog\"; type=\"application/ai-catalog+json\"";

// What the catalog says of the node itself (the daemon's, in a running node).
struct CatalogNode {
  const kademlia::Identity* identity = nullptr;
  std::function<transport::TimePoint()> now;
  std::function<std::string()> http_url;          // for URLs when the Host header cannot be used
  std::function<const config::Config&()> config;  // provider name and URL, node.ui.enabled
};

class AiCatalogRoutes {
 public:
  // Adds the routes to `router`; every reference must outlive this.
  AiCatalogRoutes(http::Router& router, const FormatRecords& records,
                  const discovery::Registry& registry, auth::Authenticator& auth, CatalogNode node);
  AiCatalogRoutes(const AiCatalogRoutes&) = delete;
  AiCatalogRoutes& operator=(const AiCatalogRoutes&) = delete;

 private:
  void HandleCatalog(const http::HttpRequest& request, http::Responder responder);
  void HandleRoot(const http::HttpRequest& request, http::Responder responder);

  const FormatRecords& records_;
  const discovery::Registry& registry_;
  auth::Authenticator& auth_;
  CatalogNode node_;
};

}  // namespace skillnode::node::formats::catalogs

#endif  // SKILLNODE_NODE_FORMATS_AI_CATALOG_ROUTES_H_
