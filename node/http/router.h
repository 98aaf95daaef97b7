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
#ifndef SKILLNODE_NODE_HTTP_ROUTER_H_
#define SKILLNODE_NODE_HTTP_ROUTER_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "node/http/http_message.h"
#include "node/http/responder.h"

namespace skillnode::node::http {

using HttpHandler = std::function<void(const HttpRequest& request, Responder responder)>;

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

  void Add(std::string_view method, std::string_view pattern, HttpHandler handler);

  // Finds the handler for a request (the path as sent, percent-encoded).
  Match Find(std::string_view method, std::string_view path) const;

  // Finds and runs the handler, or answers 404/405. Fills request.route and request.params.
  void Dispatch(HttpRequest& request, Responder responder) const;

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
  };

  static std::vector<Segment> ParsePattern(std::string_view pattern);
  static bool Matches(const Route& route, const std::vector<std::string_view>& parts,
                      std::map<std::string, std::string, std::less<>>* params);
  static bool MoreSpecific(const Route& a, const Route& b);

  std::vector<Route> routes_;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_ROUTER_H_
