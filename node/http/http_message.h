// HttpRequest and HttpResponse: what the HTTP server hands to handlers and takes back.
//
// Header names are stored lower-case; the target is split into path and query but kept
// percent-encoded (path parameters and query values are decoded when asked for). Error
// responses share one JSON shape everywhere in the API:
//   {"error": "NOT_FOUND", "message": "no route for GET /x", "details": {...}}
// where "error" is a stable code (the seed's DISC_00x codes where they apply), "message" is
// for people and "details" names fields and values (an empty object when there is nothing).
#ifndef SKILLNODE_NODE_HTTP_HTTP_MESSAGE_H_
#define SKILLNODE_NODE_HTTP_HTTP_MESSAGE_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "transport/endpoint.h"

namespace skillnode::node::http {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;   // "GET", "POST", ...
  std::string target;   // as sent: "/api/dht/lookup?key=ab"
  std::string path;     // "/api/dht/lookup" (percent-encoded as sent)
  std::string query;    // "key=ab" (without '?')
  HttpHeaders headers;  // names lower-case, in the order sent
  std::string body;
  bool keep_alive = true;
  transport::Endpoint peer;
  bool secure = false;  // it arrived over TLS (the HTTPS listener)
  // Set by the router: the matched pattern ("/api/skills/{id}") and its decoded parameters.
  std::string route;
  std::map<std::string, std::string, std::less<>> params;

  // The first header with this name (any case), or nullptr.
  const std::string* Header(std::string_view name) const;
  // The first query parameter with this name, percent- and '+'-decoded.
  std::optional<std::string> Query(std::string_view name) const;
  // A path parameter of the matched route, or nullptr.
  const std::string* Param(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  HttpHeaders headers;  // extra headers, e.g. {"Allow", "GET, HEAD"}
  std::string body;

  static HttpResponse Json(int status, const nlohmann::json& body);
  static HttpResponse Text(int status, std::string body,
                           std::string content_type = "text/plain; charset=utf-8");
  // The API's error shape. `details` must be an object (null becomes {}).
  static HttpResponse Error(int status, std::string_view code, std::string_view message,
                            nlohmann::json details = nlohmann::json::object());
};

// "OK", "Not Found", ...; "Unknown" for codes this server never sends.
std::string_view StatusReason(int status);
// Status line, Content-Type, Content-Length, Connection and the extra headers, then the
// body (left out for HEAD, whose Content-Length still describes the GET body).
std::string SerializeResponse(const HttpResponse& response, bool keep_alive, bool head);
// Percent-decoding; with `plus_is_space`, '+' decodes to ' ' (query strings). nullopt for a
// malformed escape.
std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space);
// Percent-encoding for one path segment or query value: every byte but A-Z a-z 0-9 - . _ ~.
std::string PercentEncode(std::string_view text);

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_HTTP_MESSAGE_H_
