// A JSON document answered with HTTP caching (RFC 9110, 9111), as A2A v1.0 §8.6 asks of Agent
// Cards: a strong ETag that is the SHA-256 of the body, `Cache-Control: max-age`, and 304 Not
// Modified for a request whose If-None-Match names that ETag. A document that depends on the
// request's bearer token (private skills) is `private` and every answer says `Vary:
// Authorization`. Pure.
#ifndef SKILLNODE_NODE_FORMATS_CACHED_JSON_H_
#define SKILLNODE_NODE_FORMATS_CACHED_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "node/http/http_message.h"

namespace skillnode::node::formats {

struct CachePolicy {
  uint64_t max_age_seconds = 300;
  // The body was made for this requester (it holds what only a valid token shows): shared
  // caches must not keep it.
  bool per_requester = false;
};

// "\"<64 hex digits of SHA-256(body)>\"".
std::string StrongEtag(std::string_view body);

// Whether an If-None-Match value names `etag` (RFC 9110 §13.1.2: weak comparison, "*" matches
// any; a list is comma-separated).
bool IfNoneMatchMatches(std::string_view if_none_match, std::string_view etag);

// 200 with `body` (application/json), ETag, Cache-Control and Vary; or 304 with the same
// headers and no body when the request's If-None-Match names the ETag.
http::HttpResponse CachedJsonResponse(const http::HttpRequest& request, std::string body,
                                      const CachePolicy& policy);

}  // namespace skillnode::node::formats

#endif  // SKILLNODE_NODE_FORMATS_CACHED_JSON_H_
