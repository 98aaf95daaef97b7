// Router: maps (method, path) to a handler, with path parameters.
//
// Patterns are literal segments and "{name}" segments, each matching one non-empty segment:
//   router.Add("GET", "/api/skills/{id}", handler);   // request.Param("id")
// A final "{name...}" matches the rest of the path (one or more segments, slashes kept).
// When several patterns match a path, the most specific wins: compared segment by segment
// from the left, a literal beats a parameter, which beats a rest parameter. Parameters are
// percent-decoded (a malformed escape does not match). HEAD is served by the GET handler when no
// HEAD route exists (the server drops the body). No match: 404; a path matched only for other
// methods: 405 with an Allow header. Both in the API's JSON error shape.
//
// Handlers answer through their Responder, at once or later (responder.h). A handler that
// throws gets a 500 (exceptions stop at this boundary). Adding a pattern twice for one method
// is a programmer error (assert).
//
// A route may take a larger request body than the server's node.http.maxBodyBytes
// (RouteOptions::body_bytes_max: a SKILL.md folder's archive): the request reader asks
// BodyBytesMaxFor only for a body that would pass the server's bound, so other requests pay
// no lookup.
#ifndef SKILLNODE_NODE_HTTP_ROUTER_H_
#define SKILLNODE_NODE_HTTP_ROUTER_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "node/http/http_message.h"
#include "node/http/responder.h"

namespace skillnode::node::http {

using HttpHandler = std::function<void(const HttpRequest& request, Responder responder)>;

struct RouteOptions {
  // The largest request body the route takes; 0: the server's (node.http.maxBodyBytes). A
  // larger server bound wins: a route only ever raises it.
  size_t body_bytes_max = 0;
};

class Router {
 public:
  struct Match {
    enum class Kind { kFound, kNotFound, kMethodNotAllowed };
    Kind kind = Kind::kNotFound;
    const HttpHandler* handler = nullptr;
    std::string pattern;                                     // kFound
    std::map<std::string, std::string, std::less<>> params;  // kFound
    std::vector<std::string> allowed;  // kMethodNotAllowed: methods that match
  };

  void Add(std::string_view method, std::string_view pattern, HttpHandler handler,
           RouteOptions options = {});

  // Finds the handler for a request (the path as sent, percent-encoded).
  Match Find(std::string_view method, std::string_view path) const;

  // Finds and runs the handler, or answers 404/405. Fills request.route and request.params.
  void Dispatch(HttpRequest& request, Responder responder) const;

  // The body bound of the route a request would be dispatched to: its RouteOptions'
  // body_bytes_max, 0 when it sets none or no route matches.
  size_t BodyBytesMaxFor(std::string_view method, std::string_view path) const;

  // The patterns in the order added, for listing.
  std::vector<std::string> Patterns() const;

 private:
  struct Segment {
    enum class Kind { kLiteral, kParam, kRest };
    Kind kind;
    std::string text;  // literal text or parameter name
  };
  struct Route {
    std::string method;
    std::string pattern;
    std::vector<Segment> segments;
    HttpHandler handler;
    RouteOptions options;
  };
  // The route Find would dispatch to (a GET route for HEAD without its own), or null.
  const Route* Best(std::string_view method, const std::vector<std::string_view>& parts,
                    std::vector<std::string>* allowed) const;

  static std::vector<Segment> ParsePattern(std::string_view pattern);
  static bool Matches(const Route& route, const std::vector<std::string_view>& parts,
                      std::map<std::string, std::string, std::less<>>* params);
  static bool MoreSpecific(const Route& a, const Route& b);

  std::vector<Route> routes_;
  bool any_body_bound_ = false;  // some route sets RouteOptions::body_bytes_max
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_ROUTER_H_
