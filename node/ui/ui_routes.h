// UiRoutes: the web console at /ui/ (docs/console.md), served from the assets compiled
// into the binary (ui_assets.h).
//
//   GET /ui                 308 to /ui/
//   GET /ui/ and /ui/{page...} (skills, skill/ID, live, node, signin)   index.html, no-cache
//   GET /ui/assets/{name}   a hashed asset, immutable for a year; unknown: 404
//   POST /ui/csp-report     Content-Security-Policy violation reports (counted, last kept)
//
// Every /ui answer carries a strict Content-Security-Policy (scripts and styles from the node
// only, no inline code, no eval, no frames, no plugins), nosniff and no-referrer. Bodies are
// gzip-compressed when Accept-Encoding allows it; If-None-Match with the ETag answers 304.
// Loop thread only.
#ifndef SKILLNODE_NODE_UI_UI_ROUTES_H_
#define SKILLNODE_NODE_UI_UI_ROUTES_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "node/http/prometheus.h"
#include "node/http/router.h"

namespace skillnode::node::ui {

// The policy on every /ui answer.
inline constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'; report-uri /ui/csp-report";
// The last CSP report is kept for GET /api/node if it is JSON of at most this many bytes (a
// browser's report names the page and the blocked thing in well under 2 KB).
inline constexpr size_t kCspReportBytesMax = 4096;

// Whether an Accept-Encoding value accepts gzip (a "gzip" or "*" coding with q > 0).
bool AcceptsGzip(std::string_view accept_encoding);
// Whether an If-None-Match value names `etag` (weak comparison, as RFC 9110 wants for it).
bool EtagMatches(std::string_view if_none_match, std::string_view etag);

class UiRoutes {
 public:
  UiRoutes() = default;
  UiRoutes(const UiRoutes&) = delete;
  UiRoutes& operator=(const UiRoutes&) = delete;

  void AddTo(http::Router& router);
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

 private:
  void HandleReport(const http::HttpRequest& request, http::Responder responder);

  uint64_t csp_reports_ = 0;
  nlohmann::json last_csp_report_;  // null until one comes
};

}  // namespace skillnode::node::ui

#endif  // SKILLNODE_NODE_UI_UI_ROUTES_H_
