// The router: patterns with parameters, specificity, 404/405, HEAD, and answers now or later.
#include "node/http/router.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace skillnode::node::http {
namespace {

using Catch::Contains;
using Kind = Router::Match::Kind;

// A Responder whose answer lands in `*out`.
Responder Capture(std::shared_ptr<std::optional<HttpResponse>> out) {
  auto slot = std::make_shared<ResponseSlot>();
  slot->deliver = [out](HttpResponse response) { *out = std::move(response); };
  return Responder(slot);
}

HttpHandler Named(const std::string& name) {
  return [name](const HttpRequest&, Responder responder) {
    responder.Json(200, {{"route", name}});
  };
}

TEST_CASE("literal and parameter segments match and parameters are decoded", "[unit]") {
  Router router;
  router.Add("GET", "/health", Named("health"));
  router.Add("GET", "/api/skills/{id}", Named("skill"));
  router.Add("GET", "/api/skills/{id}/versions/{version}", Named("version"));
  auto match = router.Find("GET", "/api/skills/org%2Dfeishu%20x");
  REQUIRE(match.kind == Kind::kFound);
  CHECK(match.pattern == "/api/skills/{id}");
  CHECK(match.params.at("id") == "org-feishu x");
  match = router.Find("GET", "/api/skills/a/versions/1.2");
  REQUIRE(match.kind == Kind::kFound);
  CHECK(match.params.at("id") == "a");
  CHECK(match.params.at("version") == "1.2");
  CHECK(router.Find("GET", "/health").kind == Kind::kFound);
  CHECK(router.Find("GET", "/health/").kind == Kind::kNotFound);
  CHECK(router.Find("GET", "/api/skills/").kind == Kind::kNotFound);  // empty parameter
  CHECK(router.Find("GET", "/api/skills/%zz").kind == Kind::kNotFound);
  CHECK(router.Find("GET", "/").kind == Kind::kNotFound);
}

TEST_CASE("the most specific pattern wins, literals over parameters over the rest", "[unit]") {
  Router router;
  router.Add("GET", "/api/skills/{id}", Named("by id"));
  router.Add("GET", "/api/skills/search", Named("search"));
  router.Add("GET", "/files/{path...}", Named("rest"));
  router.Add("GET", "/files/{dir}/index", Named("index"));
  CHECK(router.Find("GET", "/api/skills/search").pattern == "/api/skills/search");
  CHECK(router.Find("GET", "/api/skills/other").pattern == "/api/skills/{id}");
  auto rest = router.Find("GET", "/files/a/b/c");
  CHECK(rest.pattern == "/files/{path...}");
  CHECK(rest.params.at("path") == "a/b/c");
  CHECK(router.Find("GET", "/files/a/index").pattern == "/files/{dir}/index");
  CHECK(router.Find("GET", "/files").kind == Kind::kNotFound);
}

TEST_CASE("a path known for other methods is 405 with the allowed methods", "[unit]") {
  Router router;
  router.Add("GET", "/api/skills", Named("list"));
  router.Add("POST", "/api/skills", Named("register"));
  router.Add("DELETE", "/api/skills/{id}", Named("delete"));
  auto match = router.Find("PUT", "/api/skills");
  REQUIRE(match.kind == Kind::kMethodNotAllowed);
  CHECK(match.allowed == std::vector<std::string>{"GET", "POST", "HEAD"});
  auto out = std::make_shared<std::optional<HttpResponse>>();
  HttpRequest request;
  request.method = "PUT";
  request.path = "/api/skills";
  router.Dispatch(request, Capture(out));
  REQUIRE(out->has_value());
  CHECK((*out)->status == 405);
  CHECK((*out)->headers.at(0) == std::pair<std::string, std::string>{"Allow", "GET, POST, HEAD"});
  auto body = nlohmann::json::parse((*out)->body);
  CHECK(body["error"] == "METHOD_NOT_ALLOWED");
  CHECK(body["details"]["allowed"].size() == 3);
}

TEST_CASE("unknown routes get a 404 in the API's JSON error shape", "[unit]") {
  Router router;
  auto out = std::make_shared<std::optional<HttpResponse>>();
  HttpRequest request;
  request.method = "GET";
  request.path = "/nope";
  router.Dispatch(request, Capture(out));
  REQUIRE(out->has_value());
  CHECK((*out)->status == 404);
  CHECK((*out)->content_type == "application/json");
  auto body = nlohmann::json::parse((*out)->body);
  CHECK(body["error"] == "NOT_FOUND");
  CHECK_THAT(body["message"].get<std::string>(), Contains("GET /nope"));
  CHECK(body["details"]["path"] == "/nope");
}

TEST_CASE("HEAD is served by the GET route when there is no HEAD route", "[unit]") {
  Router router;
  router.Add("GET", "/health", Named("health"));
  auto match = router.Find("HEAD", "/health");
  CHECK(match.kind == Kind::kFound);
  CHECK(match.pattern == "/health");
}

TEST_CASE("a route's own body bound is found as its request would be dispatched", "[unit]") {
  Router router;
  router.Add("GET", "/api/skills/{id}", Named("get"));
  CHECK(router.BodyBytesMaxFor("POST", "/api/skills/folder") == 0);  // no route sets one
  router.Add("POST", "/api/skills/folder", Named("folder"), RouteOptions{.body_bytes_max = 4096});
  router.Add("POST", "/api/skills/{id}", Named("post"));
  router.Add("GET", "/files/{rest...}", Named("files"), RouteOptions{.body_bytes_max = 77});
  CHECK(router.BodyBytesMaxFor("POST", "/api/skills/folder") == 4096);
  CHECK(router.BodyBytesMaxFor("POST", "/api/skills/other") == 0);
  CHECK(router.BodyBytesMaxFor("PUT", "/api/skills/folder") == 0);  // 405: no bound
  CHECK(router.BodyBytesMaxFor("POST", "/nowhere") == 0);
  CHECK(router.BodyBytesMaxFor("HEAD", "/files/a/b") == 77);  // HEAD goes to the GET route
}

TEST_CASE("a handler may answer later, once; later answers are ignored", "[unit]") {
  Router router;
  Responder kept;
  router.Add("GET", "/slow", [&kept](const HttpRequest&, Responder responder) {
    kept = responder;  // answered after the handler returned, as after a DHT lookup
  });
  auto out = std::make_shared<std::optional<HttpResponse>>();
  HttpRequest request;
  request.method = "GET";
  request.path = "/slow";
  router.Dispatch(request, Capture(out));
  CHECK_FALSE(out->has_value());
  CHECK(request.route == "/slow");
  CHECK(kept.connected());
  kept.Json(202, {{"late", true}});
  REQUIRE(out->has_value());
  CHECK((*out)->status == 202);
  kept.Json(200, {{"again", true}});
  CHECK((*out)->status == 202);
  CHECK(kept.answered());
}

TEST_CASE("a handler that throws or forgets to answer still gets the client a 500", "[unit]") {
  Router router;
  router.Add("GET", "/throws",
             [](const HttpRequest&, Responder) { throw std::runtime_error("boom"); });
  router.Add("GET", "/forgets", [](const HttpRequest&, Responder) {});
  for (const char* path : {"/throws", "/forgets"}) {
    auto out = std::make_shared<std::optional<HttpResponse>>();
    HttpRequest request;
    request.method = "GET";
    request.path = path;
    router.Dispatch(request, Capture(out));
    INFO(path);
    REQUIRE(out->has_value());
    CHECK((*out)->status == 500);
    CHECK(nlohmann::json::parse((*out)->body)["error"] == "INTERNAL");
  }
}

TEST_CASE("query parameters are decoded; the first of a repeated name wins", "[unit]") {
  HttpRequest request;
  request.query = "key=a%20b&x=1+2&key=second&flag";
  CHECK(request.Query("key") == "a b");
  CHECK(request.Query("x") == "1 2");
  CHECK(request.Query("flag") == "");
  CHECK_FALSE(request.Query("missing").has_value());
}

}  // namespace
}  // namespace skillnode::node::http
