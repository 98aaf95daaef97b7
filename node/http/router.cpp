#include "node/http/router.h"

#include <algorithm>
#include <cassert>
#include <exception>
#include <utility>

namespace skillnode::node::http {
namespace {

std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> parts;
  if (path.starts_with('/')) path.remove_prefix(1);
  if (path.empty()) return parts;
  while (true) {
    const size_t slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) return parts;
    path.remove_prefix(slash + 1);
  }
}

std::string JoinMethods(const std::vector<std::string>& methods) {
  std::string text;
  for (const std::string& m : methods) text += (text.empty() ? "" : ", ") + m;
  return text;
}

}  // namespace

std::vector<Router::Segment> Router::ParsePattern(std::string_view pattern) {
  assert(pattern.starts_with('/') && "route patterns start with '/'");
  std::vector<Segment> segments;
  for (std::string_view part : SplitPath(pattern)) {
    if (part.size() > 2 && part.front() == '{' && part.back() == '}') {
      std::string_view name = part.substr(1, part.size() - 2);
      if (name.ends_with("...")) {
        name.remove_suffix(3);
        segments.push_back({Segment::Kind::kRest, std::string(name)});
      } else {
        segments.push_back({Segment::Kind::kParam, std::string(name)});
      }
    } else {
      segments.push_back({Segment::Kind::kLiteral, std::string(part)});
    }
  }
  for (size_t i = 0; i + 1 < segments.size(); ++i) {
    assert(segments[i].kind != Segment::Kind::kRest && "{name...} must be the last segment");
  }
  return segments;
}

void Router::Add(std::string_view method, std::string_view pattern, HttpHandler handler,
                 RouteOptions options) {
  for (const Route& route : routes_) {
    assert(!(route.method == method && route.pattern == pattern) && "route added twice");
    (void)route;
  }
  any_body_bound_ = any_body_bound_ || options.body_bytes_max != 0;
  routes_.push_back(Route{std::string(method), std::string(pattern), ParsePattern(pattern),
                          std::move(handler), options});
}

bool Router::Matches(const Route& route, const std::vector<std::string_view>& parts,
                     std::map<std::string, std::string, std::less<>>* params) {
  const auto& segments = route.segments;
  const bool rest = !segments.empty() && segments.back().kind == Segment::Kind::kRest;
  if (rest ? parts.size() < segments.size() : parts.size() != segments.size()) return false;
  std::map<std::string, std::string, std::less<>> found;
  for (size_t i = 0; i < segments.size(); ++i) {
    const Segment& segment = segments[i];
    if (segment.kind == Segment::Kind::kLiteral) {
      if (parts[i] != segment.text) return false;
      continue;
    }
    std::string raw(parts[i]);
    if (segment.kind == Segment::Kind::kRest) {
      for (size_t j = i + 1; j < parts.size(); ++j) raw += "/" + std::string(parts[j]);
    }
    auto decoded = PercentDecode(raw, false);
    if (raw.empty() || !decoded) return false;
    found[segment.text] = std::move(*decoded);
  }
  if (params != nullptr) *params = std::move(found);
  return true;
}

bool Router::MoreSpecific(const Route& a, const Route& b) {
  const size_t n = std::min(a.segments.size(), b.segments.size());
  for (size_t i = 0; i < n; ++i) {
    if (a.segments[i].kind != b.segments[i].kind) return a.segments[i].kind < b.segments[i].kind;
  }
  return a.segments.size() > b.segments.size();
}

const Router::Route* Router::Best(std::string_view method,
                                  const std::vector<std::string_view>& parts,
                                  std::vector<std::string>* allowed) const {
  const Route* best = nullptr;
  const Route* best_get = nullptr;  // for HEAD without a HEAD route
  for (const Route& route : routes_) {
    if (!Matches(route, parts, nullptr)) continue;
    if (route.method == method) {
      if (best == nullptr || MoreSpecific(route, *best)) best = &route;
    } else if (method == "HEAD" && route.method == "GET") {
      if (best_get == nullptr || MoreSpecific(route, *best_get)) best_get = &route;
    }
    if (allowed != nullptr &&
        std::find(allowed->begin(), allowed->end(), route.method) == allowed->end()) {
      allowed->push_back(route.method);
    }
  }
  return best != nullptr ? best : best_get;
}

Router::Match Router::Find(std::string_view method, std::string_view path) const {
  const auto parts = SplitPath(path);
  Match match;
  const Route* best = Best(method, parts, &match.allowed);
  if (best == nullptr) {
    match.kind = match.allowed.empty() ? Match::Kind::kNotFound : Match::Kind::kMethodNotAllowed;
    if (std::find(match.allowed.begin(), match.allowed.end(), "GET") != match.allowed.end()) {
      match.allowed.push_back("HEAD");
    }
    return match;
  }
  match.kind = Match::Kind::kFound;
  match.handler = &best->handler;
  match.pattern = best->pattern;
  match.allowed.clear();
  Matches(*best, parts, &match.params);
  return match;
}

size_t Router::BodyBytesMaxFor(std::string_view method, std::string_view path) const {
  if (!any_body_bound_) return 0;
  const Route* best = Best(method, SplitPath(path), nullptr);
  return best == nullptr ? 0 : best->options.body_bytes_max;
}

void Router::Dispatch(HttpRequest& request, Responder responder) const {
  Match match = Find(request.method, request.path);
  switch (match.kind) {
    case Match::Kind::kNotFound:
      return responder.Error(404, "NOT_FOUND",
                             "no route for " + request.method + " " + request.path,
                             {{"method", request.method}, {"path", request.path}});
    case Match::Kind::kMethodNotAllowed: {
      HttpResponse response = HttpResponse::Error(
          405, "METHOD_NOT_ALLOWED",
          request.method + " is not allowed on " + request.path +
              "; allowed: " + JoinMethods(match.allowed),
          {{"method", request.method}, {"path", request.path}, {"allowed", match.allowed}});
      response.headers.emplace_back("Allow", JoinMethods(match.allowed));
      return responder.Send(std::move(response));
    }
    case Match::Kind::kFound:
      break;
  }
  request.route = match.pattern;
  request.params = std::move(match.params);
  try {
    (*match.handler)(request, responder);
  } catch (const std::exception& e) {
    responder.Error(500, "INTERNAL", std::string("handler failed: ") + e.what());
  }
}

std::vector<std::string> Router::Patterns() const {
  std::vector<std::string> patterns;
  for (const Route& route : routes_) patterns.push_back(route.method + " " + route.pattern);
  return patterns;
}

}  // namespace skillnode::node::http
