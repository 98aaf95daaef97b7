// The HTTP answer every agent-ecosystem listing sends (docs/formats.md): JSON with the
// headers a browser-based or caching client needs.
//
//   Access-Control-Allow-Origin: *   the listings are public documents (the Agent Skills
//                                    discovery draft asks for CORS headers)
//   Cache-Control                    "public, max-age=60" for an anonymous request; an answer
//                                    that may hold private skills (an authenticated request)
//                                    is "private, no-store"
//   Vary: Authorization              the answer depends on the token
//
// Pure; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_FORMAT_RESPONSE_H_
#define SKILLNODE_NODE_FORMATS_FORMAT_RESPONSE_H_

#include <nlohmann/json.hpp>
#include <string>

#include "node/http/http_message.h"

namespace skillnode::node::formats {

// How long an anonymous listing may be cached: records change at registrations and health
// changes; a minute keeps crawlers off the DHT without showing a removed skill for long.
constexpr int kListingMaxAgeSeconds = 60;

http::HttpResponse ListingResponse(int status, const nlohmann::json& body, bool authenticated,
                                   std::string content_type = "application/json");

}  // namespace skillnode::node::formats

#endif  // SKILLNODE_NODE_FORMATS_FORMAT_RESPONSE_H_
