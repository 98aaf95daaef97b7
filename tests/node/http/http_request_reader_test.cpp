// Parsing requests from bytes: keep-alive, pipelining, split reads, limits and bad input.
#include "node/http/http_request_reader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "node/http/http_message.h"

namespace skillnode::node::http {
namespace {

using State = HttpRequestReader::State;

constexpr size_t kHeaders = 1024;
constexpr size_t kBody = 100;

TEST_CASE("a GET request is parsed with lower-case headers, path and query", "[unit]") {
  HttpRequestReader reader(kHeaders, kBody);
  const std::string bytes = "GET /api/dht/lookup?key=ab HTTP/1.1\r\nHost: x\r\nX-Thing: Y\r\n\r\n";
  CHECK(reader.Feed(bytes) == bytes.size());
  REQUIRE(reader.state() == State::kComplete);
  HttpRequest request = reader.Take();
  CHECK(request.method == "GET");
  CHECK(request.path == "/api/dht/lookup");
  CHECK(request.query == "key=ab");
  CHECK(request.headers.at(1).first == "x-thing");
  CHECK(*request.Header("X-THING") == "Y");
  CHECK(request.keep_alive);
  CHECK(reader.state() == State::kIdle);
}

TEST_CASE("pipelined requests come out one at a time, in order", "[unit]") {
  HttpRequestReader reader(kHeaders, kBody);
  std::string bytes =
      "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
      "GET /c HTTP/1.1\r\nConnection: close\r\n\r\n";
  std::vector<HttpRequest> requests;
  while (!bytes.empty()) {
    const size_t used = reader.Feed(bytes);
    bytes.erase(0, used);
    REQUIRE(reader.state() == State::kComplete);
    requests.push_back(reader.Take());
  }
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].path == "/a");
  CHECK(requests[1].method == "POST");
  CHECK(requests[1].body == "abc");
  CHECK(requests[2].path == "/c");
  CHECK_FALSE(requests[2].keep_alive);
}

TEST_CASE("a request fed one byte at a time parses the same", "[unit]") {
  HttpRequestReader reader(kHeaders, kBody);
  const std::string bytes =
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
  for (size_t i = 0; i < bytes.size(); ++i) {
    REQUIRE(reader.state() != State::kComplete);
    CHECK(reader.Feed(bytes.substr(i, 1)) == 1);
    if (i == 0) CHECK(reader.state() == State::kPartial);
  }
  REQUIRE(reader.state() == State::kComplete);
  CHECK(reader.Take().body == "abcde");
}

TEST_CASE("HTTP/1.0 closes unless it asks for keep-alive", "[unit]") {
  HttpRequestReader reader(kHeaders, kBody);
  reader.Feed("GET / HTTP/1.0\r\n\r\n");
  CHECK_FALSE(reader.Take().keep_alive);
  reader.Feed("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  CHECK(reader.Take().keep_alive);
}

TEST_CASE("oversized headers are refused with 431 before they are buffered", "[unit]") {
  HttpRequestReader reader(kHeaders, kBody);
  reader.Feed("GET / HTTP/1.1\r\nX-Big: " + std::string(2 * kHeaders, 'a'));
  REQUIRE(reader.state() == State::kFailed);
  CHECK(reader.error().status == 431);
  CHECK(reader.error().code == "HEADERS_TOO_LARGE");
  HttpRequestReader long_url(kHeaders, kBody);
  long_url.Feed("GET /" + std::string(2 * kHeaders, 'a'));
  CHECK(long_url.error().status == 431);
}

TEST_CASE("a body over the limit is refused with 413, declared or chunked", "[unit]") {
  HttpRequestReader declared(kHeaders, kBody);
  declared.Feed("POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n");
  REQUIRE(declared.state() == State::kFailed);
  CHECK(declared.error().status == 413);
  HttpRequestReader chunked(kHeaders, kBody);
  chunked.Feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n" +
               std::string(101, 'x'));
  REQUIRE(chunked.state() == State::kFailed);
  CHECK(chunked.error().code == "BODY_TOO_LARGE");
}

TEST_CASE("a route that raises the body bound takes a larger body, and no more", "[unit]") {
  std::vector<std::string> asked;
  const auto bound = [&asked](std::string_view method, std::string_view path) -> size_t {
    asked.push_back(std::string(method) + " " + std::string(path));
    return path == "/upload" ? 300 : 0;
  };
  HttpRequestReader reader(kHeaders, kBody, bound);
  reader.Feed("POST /small HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello");
  REQUIRE(reader.state() == State::kComplete);
  CHECK(asked.empty());  // a body within the server's bound asks no route
  reader.Take();
  reader.Feed("POST /upload?x=1 HTTP/1.1\r\nContent-Length: 300\r\n\r\n" + std::string(300, 'x'));
  REQUIRE(reader.state() == State::kComplete);
  CHECK(reader.Take().body.size() == 300);
  CHECK(asked == std::vector<std::string>{"POST /upload"});
  reader.Feed("POST /upload HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n12d\r\n" +
              std::string(301, 'x'));
  REQUIRE(reader.state() == State::kFailed);
  CHECK(reader.error().status == 413);
  CHECK(reader.error().message == "body exceeds 300 bytes");

  HttpRequestReader other(kHeaders, kBody, bound);
  other.Feed("POST /elsewhere HTTP/1.1\r\nContent-Length: 101\r\n\r\n");
  REQUIRE(other.state() == State::kFailed);
  CHECK(other.error().message == "body of 101 bytes exceeds 100");
  HttpRequestReader declared(kHeaders, kBody, bound);
  declared.Feed("PUT /upload HTTP/1.1\r\nContent-Length: 301\r\n\r\n");
  REQUIRE(declared.state() == State::kFailed);
  CHECK(declared.error().message == "body of 301 bytes exceeds 300");
}

TEST_CASE("malformed requests are refused with 400 and a reason", "[unit]") {
  for (const std::string& bytes : std::vector<std::string>{
           "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
           "GET / HTTP/1.1\r\nNo colon here\r\n\r\n", std::string("GET /\x01 HTTP/1.1\r\n\r\n")}) {
    HttpRequestReader reader(kHeaders, kBody);
    reader.Feed(bytes);
    INFO(bytes);
    REQUIRE(reader.state() == State::kFailed);
    CHECK(reader.error().status == 400);
    CHECK(reader.error().message.starts_with("malformed request"));
  }
}

TEST_CASE("an HTTP major version other than 1 is refused with 505", "[unit]") {
  HttpRequestReader reader(kHeaders, kBody);
  reader.Feed("GET / HTTP/2.0\r\n\r\n");
  REQUIRE(reader.state() == State::kFailed);
  CHECK(reader.error().status == 505);
}

TEST_CASE("Expect: 100-continue is reported once while the body is awaited", "[unit]") {
  HttpRequestReader reader(kHeaders, kBody);
  reader.Feed("POST / HTTP/1.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n");
  CHECK(reader.state() == State::kPartial);
  CHECK(reader.TakeContinue());
  CHECK_FALSE(reader.TakeContinue());
  reader.Feed("ok");
  CHECK(reader.Take().body == "ok");
}

TEST_CASE("responses carry status, length and connection headers; HEAD has no body", "[unit]") {
  auto response = HttpResponse::Error(404, "NOT_FOUND", "no", {{"path", "/x"}});
  const std::string text = SerializeResponse(response, true, false);
  CHECK(text.starts_with(
      "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
      "Content-Length: " +
      std::to_string(response.body.size()) + "\r\nConnection: keep-alive\r\n\r\n"));
  CHECK(text.ends_with(response.body));
  const std::string head = SerializeResponse(response, false, true);
  CHECK(head.ends_with("Connection: close\r\n\r\n"));
  CHECK(nlohmann::json::parse(response.body) ==
        nlohmann::json({{"error", "NOT_FOUND"}, {"message", "no"}, {"details", {{"path", "/x"}}}}));
}

}  // namespace
}  // namespace skillnode::node::http
