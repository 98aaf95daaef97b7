// UvHttpClient against a small HTTP server on the same loop (127.0.0.1) that answers well or
// misbehaves on purpose by path: a plain answer, an echo of what was sent, an answer that never
// comes, a body over the limit, bytes that are not HTTP, a connection closed at once. Each case
// ends with every handle closed and uv_loop_close returning 0.
#include "transport/uv/uv_http_client.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/uv_http_test_server.h"
#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::transport {
namespace {

using testing::HttpTestReply;
using testing::HttpTestResponse;

// The client tests' server, by path: /ok, /echo (method, Authorization and body), /big
// (200,000 bytes), /garbage (not HTTP), /close (closed at once), /slow (never answers).
HttpTestReply ClientTestAnswer(const std::string& line, const std::string& request,
                               const std::string& body) {
  using Action = HttpTestReply::Action;
  if (line.find(" /ok ") != std::string::npos) {
    return {Action::kSend, HttpTestResponse(200, "hello")};
  } else if (line.find(" /echo ") != std::string::npos) {
    std::string auth = "none";
    if (const size_t at = request.find("Authorization: "); at != std::string::npos) {
      auth = request.substr(at + 15, request.find("\r\n", at) - at - 15);
    }
    const std::string method = line.substr(0, line.find(' '));
    return {Action::kSend, HttpTestResponse(201, method + "|" + auth + "|" + body)};
  } else if (line.find(" /big ") != std::string::npos) {
    return {Action::kSend, HttpTestResponse(200, std::string(200000, 'x'))};
  } else if (line.find(" /garbage ") != std::string::npos) {
    return {Action::kSendAndClose, "this is not HTTP at all\r\n\r\n"};
  } else if (line.find(" /close ") != std::string::npos) {
    return {Action::kClose, ""};
  }
  return {Action::kSilent, ""};  // " /slow ": no answer at all
}

class TestServer : public testing::UvHttpTestServer {
 public:
  explicit TestServer(uv::UvLoop& loop) : UvHttpTestServer(loop, &ClientTestAnswer) {}
};

// Runs `requests` on one client and returns their results in order.
std::vector<uv::HttpClientResult> RunAll(std::vector<uv::HttpClientRequest> requests,
                                         uv::HttpClientConfig config = {}) {
  uv::UvLoop loop;
  TestServer server(loop);
  uv::UvHttpClient client(loop, config);
  uv::UvTimer limit(loop);
  std::vector<std::optional<uv::HttpClientResult>> results(requests.size());
  size_t left = requests.size();
  auto finish = [&] {
    client.Close();
    server.Close();
    limit.Close();
  };
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i].url.starts_with("/")) requests[i].url = server.Url(requests[i].url);
    client.Start(requests[i], [&, i](uv::HttpClientResult result) {
      results[i] = std::move(result);
      if (--left == 0) finish();
    });
  }
  limit.Start(Seconds(10), [&] {
    FAIL_CHECK("the requests did not finish within 10 s");
    finish();
  });
  loop.Run();
  REQUIRE(loop.Close().clean());
  std::vector<uv::HttpClientResult> out;
  for (auto& result : results) {
    REQUIRE(result.has_value());
    out.push_back(std::move(*result));
  }
  return out;
}

uv::HttpClientRequest Get(const std::string& path) {
  uv::HttpClientRequest request;
  request.url = path;
  return request;
}

TEST_CASE("http client: a GET gets status, headers and body", "[uv][http-client]") {
  auto results = RunAll({Get("/ok")});
  REQUIRE(results[0].has_value());
  CHECK(results[0]->status == 200);
  CHECK(results[0]->body == "hello");
  CHECK(results[0]->headers.at("x-test") == "yes");
}

TEST_CASE("http client: a POST sends its body and the bearer token", "[uv][http-client]") {
  uv::HttpClientRequest request = Get("/echo");
  request.method = "POST";
  request.body = R"({"a":1})";
  request.headers = {{"Content-Type", "application/json"}};
  request.bearer_token = "t0ken";
  auto results = RunAll({request});
  REQUIRE(results[0].has_value());
  CHECK(results[0]->status == 201);
  CHECK(results[0]->body == R"(POST|Bearer t0ken|{"a":1})");
}

TEST_CASE("http client: many requests run at once on one loop", "[uv][http-client]") {
  std::vector<uv::HttpClientRequest> requests(40, Get("/ok"));
  auto results = RunAll(requests);
  for (const auto& result : results) {
    REQUIRE(result.has_value());
    CHECK(result->body == "hello");
  }
}

TEST_CASE("http client: each failure has its own kind", "[uv][http-client]") {
  uv::HttpClientRequest slow = Get("/slow");
  slow.timeout = Millis(300);
  uv::HttpClientRequest big = Get("/big");
  big.response_bytes_max = 100000;
  uv::HttpClientRequest refused = Get("http://127.0.0.1:1/");
  uv::HttpClientRequest scheme = Get("ftp://127.0.0.1/x");
  auto results = RunAll({slow, big, Get("/garbage"), Get("/close"), refused, scheme});
  const std::vector<uv::HttpClientErrorKind> expected = {
      uv::HttpClientErrorKind::kTimeout,  uv::HttpClientErrorKind::kTooLarge,
      uv::HttpClientErrorKind::kProtocol, uv::HttpClientErrorKind::kProtocol,
      uv::HttpClientErrorKind::kConnect,  uv::HttpClientErrorKind::kBadRequest};
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("request " << i);
    REQUIRE_FALSE(results[i].has_value());
    CHECK(uv::HttpClientErrorKindName(results[i].error().kind) ==
          uv::HttpClientErrorKindName(expected[i]));
    CHECK_FALSE(results[i].error().message.empty());
  }
  // The timeout is the request's, not more.
  CHECK(results[0].error().message.find("300 ms") != std::string::npos);
}

TEST_CASE("http client: the peer check sees the connected address and can refuse it",
          "[uv][http-client]") {
  uv::HttpClientRequest allowed = Get("/ok");
  std::string seen;
  allowed.peer_check = [&seen](std::string_view ip) -> std::optional<std::string> {
    seen = std::string(ip);
    return std::nullopt;
  };
  uv::HttpClientRequest refused = Get("/echo");
  refused.method = "POST";
  refused.body = "never sent";
  refused.peer_check = [](std::string_view ip) -> std::optional<std::string> {
    return std::string(ip) + " is a loopback address";
  };
  auto results = RunAll({allowed, refused});
  REQUIRE(results[0].has_value());
  CHECK(results[0]->body == "hello");
  CHECK(seen == "127.0.0.1");
  REQUIRE_FALSE(results[1].has_value());
  CHECK(results[1].error().kind == uv::HttpClientErrorKind::kRefused);
  CHECK(uv::HttpClientErrorKindName(results[1].error().kind) == "refused");
  CHECK(results[1].error().message.find("127.0.0.1 is a loopback address") != std::string::npos);
}

TEST_CASE("http client: past requests_in_flight_max a request fails at once", "[uv][http-client]") {
  uv::HttpClientConfig config;
  config.requests_in_flight_max = 2;
  std::vector<uv::HttpClientRequest> requests(3, Get("/ok"));
  auto results = RunAll(requests, config);
  CHECK(results[0].has_value());
  CHECK(results[1].has_value());
  REQUIRE_FALSE(results[2].has_value());
  CHECK(results[2].error().kind == uv::HttpClientErrorKind::kBusy);
}

TEST_CASE("http client: a cancelled request never calls back", "[uv][http-client]") {
  uv::UvLoop loop;
  TestServer server(loop);
  uv::UvHttpClient client(loop, {});
  uv::UvTimer later(loop);
  bool called = false;
  const uint64_t id =
      client.Start(Get(server.Url("/slow")), [&](uv::HttpClientResult) { called = true; });
  client.Start(Get(server.Url("/ok")), [&](uv::HttpClientResult result) {
    CHECK(result.has_value());
    client.Cancel(id);
    later.Start(Millis(50), [&] {
      client.Close();
      server.Close();
      later.Close();
    });
  });
  loop.Run();
  CHECK_FALSE(called);
  CHECK(client.stats().cancelled == 1);
  CHECK(client.in_flight() == 0);
  REQUIRE(loop.Close().clean());
}

}  // namespace
}  // namespace skillnode::transport
