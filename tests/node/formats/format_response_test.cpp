// The listings' HTTP answer (node/formats/format_response.h): CORS, and a cache policy that
// never lets a shared cache keep an answer made for a token.
#include "node/formats/format_response.h"

#include <catch2/catch.hpp>

namespace skillnode::node::formats {
namespace {

std::string HeaderOf(const http::HttpResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

TEST_CASE("an anonymous listing is public for a minute and open to every origin", "[unit]") {
  const auto response = ListingResponse(200, {{"a", 1}}, false);
  CHECK(response.status == 200);
  CHECK(response.content_type == "application/json");
  CHECK(nlohmann::json::parse(response.body) == nlohmann::json{{"a", 1}});
  CHECK(HeaderOf(response, "Access-Control-Allow-Origin") == "*");
  CHECK(HeaderOf(response, "Cache-Control") == "public, max-age=60");
  CHECK(HeaderOf(response, "Vary") == "Authorization");
}

TEST_CASE("an authenticated listing is never stored, and keeps its media type", "[unit]") {
  const auto response =
      ListingResponse(200, nlohmann::json::object(), true, "application/ai-catalog+json");
  CHECK(response.content_type == "application/ai-catalog+json");
  CHECK(HeaderOf(response, "Cache-Control") == "private, no-store");
}

}  // namespace
}  // namespace skillnode::node::formats
