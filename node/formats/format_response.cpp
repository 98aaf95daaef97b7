#include "node/formats/format_response.h"

#include <utility>

namespace skillnode::node::formats {

http::HttpResponse ListingResponse(int status, const nlohmann::json& body, bool authenticated,
                                   std::string content_type) {
  http::HttpResponse response = http::HttpResponse::Json(status, body);
  response.content_type = std::move(content_type);
  response.headers.emplace_back("Access-Control-Allow-Origin", "*");
  response.headers.emplace_back(
      "Cache-Control", authenticated ? std::string("private, no-store")
                                     : "public, max-age=" + std::to_string(kListingMaxAgeSeconds));
  response.headers.emplace_back("Vary", "Authorization");
  return response;
}

}  // namespace skillnode::node::formats
