// Cached JSON answers (node/formats/cached_json.h): a strong ETag of the body, max-age,
// private for per-requester documents, and 304 for If-None-Match naming the ETag (in a list,
// weak, or "*").
#include "node/formats/cached_json.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::node::formats {
namespace {

std::string HeaderOf(const http::HttpResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return "";
}

http::HttpRequest Request(const std::string& if_none_match = "") {
  http::HttpRequest request;
  request.method = "GET";
  if (!if_none_match.empty()) request.headers.emplace_back("if-none-match", if_none_match);
  return request;
}

TEST_CASE("the ETag is the quoted SHA-256 of the body", "[unit]") {
  CHECK(StrongEtag("") == "\"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"");
  CHECK(StrongEtag("{}") != StrongEtag("{ }"));
}

TEST_CASE("a first request gets the body with ETag, max-age and Vary", "[unit]") {
  const auto response = CachedJsonResponse(Request(), "{\"a\":1}", {120, false});
  CHECK(response.status == 200);
  CHECK(response.content_type == "application/json");
  CHECK(response.body == "{\"a\":1}");
  CHECK(HeaderOf(response, "ETag") == StrongEtag("{\"a\":1}"));
  CHECK(HeaderOf(response, "Cache-Control") == "public, max-age=120");
  CHECK(HeaderOf(response, "Vary") == "Authorization");
  const auto mine = CachedJsonResponse(Request(), "{}", {60, true});
  CHECK(HeaderOf(mine, "Cache-Control") == "private, max-age=60");
}

TEST_CASE("If-None-Match naming the ETag gets 304 without a body", "[unit]") {
  const std::string body = "{\"a\":1}";
  const std::string etag = StrongEtag(body);
  for (const std::string& match :
       {etag, "W/" + etag, "\"other\", " + etag, " \"x\" ,W/" + etag + " ", std::string("*")}) {
    INFO(match);
    const auto response = CachedJsonResponse(Request(match), body, {300, false});
    CHECK(response.status == 304);
    CHECK(response.body.empty());
    CHECK(HeaderOf(response, "ETag") == etag);
    CHECK(HeaderOf(response, "Cache-Control") == "public, max-age=300");
  }
  for (const std::string& miss : {std::string("\"other\""), etag.substr(1), std::string(",")}) {
    INFO(miss);
    CHECK(CachedJsonResponse(Request(miss), body, {300, false}).status == 200);
  }
}

}  // namespace
}  // namespace skillnode::node::formats
