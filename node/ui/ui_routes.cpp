// The web console's routes: assets out of the binary, with caching, compression and the
// security headers every /ui answer carries.
#include "node/ui/ui_routes.h"

#include <cstdlib>
#include <string>

#include "node/ui/ui_assets.h"

namespace skillnode::node::ui {
namespace {

constexpr std::string_view kImmutable = "public, max-age=31536000, immutable";
constexpr std::string_view kNoCache = "no-cache";
// The console's own pages: any other path under /ui/ is a 404, not index.html.
constexpr std::string_view kPages[] = {"skills", "skill", "live", "node", "signin"};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Calls `each` with every comma-separated element of a header value, trimmed.
template <typename F>
void ForEachElement(std::string_view value, F each) {
  while (!value.empty()) {
    const size_t comma = value.find(',');
    each(Trim(value.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

void AddSecurityHeaders(http::HttpResponse& response) {
  response.headers.emplace_back("Content-Security-Policy", std::string(kContentSecurityPolicy));
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Referrer-Policy", "no-referrer");
  response.headers.emplace_back("X-Frame-Options", "DENY");
}

const UiAsset* FindAsset(std::string_view name) {
  for (const UiAsset& asset : UiAssets()) {
    if (asset.name == name) return &asset;
  }
  return nullptr;
}

void Serve(const http::HttpRequest& request, http::Responder& responder, const UiAsset& asset) {
  http::HttpResponse response;
  response.content_type = std::string(asset.content_type);
  response.headers.emplace_back("ETag", std::string(asset.etag));
  response.headers.emplace_back("Cache-Control",
                                std::string(asset.immutable ? kImmutable : kNoCache));
  response.headers.emplace_back("Vary", "Accept-Encoding");
  AddSecurityHeaders(response);
  const std::string* if_none_match = request.Header("if-none-match");
  if (if_none_match != nullptr && EtagMatches(*if_none_match, asset.etag)) {
    response.status = 304;
    return responder.Send(std::move(response));
  }
  const std::string* accept = request.Header("accept-encoding");
  if (accept != nullptr && AcceptsGzip(*accept)) {
    response.headers.emplace_back("Content-Encoding", "gzip");
    response.body = std::string(asset.gzip);
  } else {
    response.body = std::string(asset.plain);
  }
  responder.Send(std::move(response));
}

void NotFound(http::Responder& responder, std::string_view what) {
  http::HttpResponse response =
      http::HttpResponse::Error(404, "NOT_FOUND", "the web console has no " + std::string(what));
  AddSecurityHeaders(response);
  responder.Send(std::move(response));
}

}  // namespace

bool AcceptsGzip(std::string_view accept_encoding) {
  bool accepted = false;
  ForEachElement(accept_encoding, [&accepted](std::string_view element) {
    const size_t semicolon = element.find(';');
    const std::string_view coding = Trim(element.substr(0, semicolon));
    if (!EqualsNoCase(coding, "gzip") && !EqualsNoCase(coding, "x-gzip") && coding != "*") return;
    double q = 1.0;
    if (semicolon != std::string_view::npos) {
      std::string_view param = Trim(element.substr(semicolon + 1));
      if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
        q = std::strtod(std::string(param.substr(2)).c_str(), nullptr);
      }
    }
    if (q > 0) accepted = true;
  });
  return accepted;
}

bool EtagMatches(std::string_view if_none_match, std::string_view etag) {
  bool matched = false;
  ForEachElement(if_none_match, [&](std::string_view element) {
    if (element.starts_with("W/")) element.remove_prefix(2);
    if (element == "*" || element == etag) matched = true;
  });
  return matched;
}

void UiRoutes::AddTo(http::Router& router) {
  router.Add("GET", "/ui", [](const http::HttpRequest&, http::Responder responder) {
    http::HttpResponse response = http::HttpResponse::Text(308, "see /ui/\n");
    response.headers.emplace_back("Location", "/ui/");
    AddSecurityHeaders(response);
    responder.Send(std::move(response));
  });
  const auto index = [](const http::HttpRequest& request, http::Responder responder) {
    const UiAsset* asset = FindAsset("index.html");
    if (asset == nullptr) return NotFound(responder, "index.html");
    Serve(request, responder, *asset);
  };
  router.Add("GET", "/ui/", index);
  router.Add("GET", "/ui/{page...}",
             [index](const http::HttpRequest& request, http::Responder responder) {
               const std::string* page = request.Param("page");
               const std::string_view first = std::string_view(*page).substr(0, page->find('/'));
               for (std::string_view known : kPages) {
                 if (first == known) return index(request, std::move(responder));
               }
               NotFound(responder, "page " + *page);
             });
  router.Add("GET", "/ui/assets/{name}",
             [](const http::HttpRequest& request, http::Responder responder) {
               const std::string* name = request.Param("name");
               const UiAsset* asset = FindAsset(*name);
               if (asset == nullptr || !asset->immutable)
                 return NotFound(responder, "asset " + *name);
               Serve(request, responder, *asset);
             });
  router.Add("POST", "/ui/csp-report",
             [this](const http::HttpRequest& request, http::Responder responder) {
               HandleReport(request, std::move(responder));
             });
}

void UiRoutes::HandleReport(const http::HttpRequest& request, http::Responder responder) {
  ++csp_reports_;
  if (request.body.size() <= kCspReportBytesMax) {
    last_csp_report_ = nlohmann::json::parse(request.body, nullptr, /*allow_exceptions=*/false);
    if (last_csp_report_.is_discarded()) last_csp_report_ = {{"unparsed", request.body.size()}};
  } else {
    last_csp_report_ = {{"tooLarge", request.body.size()}};
  }
  http::HttpResponse response;
  response.status = 204;
  AddSecurityHeaders(response);
  responder.Send(std::move(response));
}

nlohmann::json UiRoutes::Info() const {
  size_t assets = 0;
  for (const UiAsset& asset : UiAssets()) assets += asset.immutable ? 1 : 0;
  return {{"enabled", true},
          {"assets", assets},
          {"cspReports", csp_reports_},
          {"lastCspReport", last_csp_report_}};
}

void UiRoutes::WriteMetrics(http::PrometheusWriter& out) const {
  out.Counter("skillnode_ui_csp_reports_total",
              "Content-Security-Policy violation reports the web console's pages sent.",
              static_cast<double>(csp_reports_));
}

}  // namespace skillnode::node::ui
