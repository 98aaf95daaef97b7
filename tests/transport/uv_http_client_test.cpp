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

#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::transport {
namespace {

class TestServer {
 public:
  explicit TestServer(uv::UvLoop& loop) {
    REQUIRE(uv_tcp_init(loop.get(), listener_.get()) == 0);
    listener_.Initialized(this);
    sockaddr_in addr{};
    uv_ip4_addr("127.0.0.1", 0, &addr);
    REQUIRE(uv_tcp_bind(listener_.get(), reinterpret_cast<const sockaddr*>(&addr), 0) == 0);
    REQUIRE(uv_listen(reinterpret_cast<uv_stream_t*>(listener_.get()), 16, &OnConnection) == 0);
    sockaddr_storage bound{};
    int length = sizeof(bound);
    uv_tcp_getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&bound), &length);
    port_ = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  }
  ~TestServer() { Close(); }

  std::string Url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void Close() {
    listener_.Close();
    connections_.clear();
  }

 private:
  struct Connection {
    TestServer* server = nullptr;
    uv::UvHandle<uv_tcp_t> tcp;
    std::string received;
  };

  static void OnConnection(uv_stream_t* listener, int status) {
    auto* self = static_cast<TestServer*>(listener->data);
    if (self == nullptr || status != 0) return;
    auto connection = std::make_unique<Connection>();
    connection->server = self;
    uv_tcp_init(listener->loop, connection->tcp.get());
    connection->tcp.Initialized(connection.get());
    auto* stream = reinterpret_cast<uv_stream_t*>(connection->tcp.get());
    if (uv_accept(listener, stream) != 0) return;
    uv_read_start(
        stream,
        [](uv_handle_t*, size_t, uv_buf_t* buf) {
          static char buffer[65536];
          *buf = uv_buf_init(buffer, sizeof(buffer));
        },
        &OnRead);
    self->connections_.push_back(std::move(connection));
  }

  static void OnRead(uv_stream_t* stream, ssize_t count, const uv_buf_t* buf) {
    auto* connection = static_cast<Connection*>(stream->data);
    if (connection == nullptr) return;
    if (count < 0) {
      connection->tcp.Close();
      return;
    }
    connection->received.append(buf->base, static_cast<size_t>(count));
    // Requests on a kept-alive connection are answered one after the other.
    while (true) {
      const size_t end = connection->received.find("\r\n\r\n");
      if (end == std::string::npos) return;
      size_t length = 0;
      const size_t at = connection->received.find("Content-Length: ");
      if (at != std::string::npos && at < end) {
        length = std::stoul(connection->received.substr(at + 16));
      }
      if (connection->received.size() < end + 4 + length) return;
      const std::string head = connection->received.substr(0, end + 4);
      const std::string body = connection->received.substr(end + 4, length);
      connection->received.erase(0, end + 4 + length);
      if (!Answer(*connection, head, body)) return;
    }
  }

  static void Send(Connection& connection, std::string bytes, bool close_after) {
    struct Write {
      uv_write_t request{};
      std::string bytes;
      Connection* close_after = nullptr;  // closed once the bytes are out
    };
    auto* write = new Write{{}, std::move(bytes), close_after ? &connection : nullptr};
    uv_buf_t buf = uv_buf_init(write->bytes.data(), static_cast<unsigned>(write->bytes.size()));
    uv_write(&write->request, reinterpret_cast<uv_stream_t*>(connection.tcp.get()), &buf, 1,
             [](uv_write_t* request, int status) {
               auto* done = reinterpret_cast<Write*>(request);
               if (status == 0 && done->close_after != nullptr) done->close_after->tcp.Close();
               delete done;
             });
  }

  static std::string Response(int status, const std::string& body) {
    return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: text/plain\r\nX-Test: yes" +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }

  // False when the connection is done with (closed, or left waiting).
  static bool Answer(Connection& connection, const std::string& request, const std::string& body) {
    const std::string line = request.substr(0, request.find("\r\n"));
    if (line.find(" /ok ") != std::string::npos) {
      Send(connection, Response(200, "hello"), false);
      return true;
    } else if (line.find(" /echo ") != std::string::npos) {
      std::string auth = "none";
      if (const size_t at = request.find("Authorization: "); at != std::string::npos) {
        auth = request.substr(at + 15, request.find("\r\n", at) - at - 15);
      }
      const std::string method = line.substr(0, line.find(' '));
      Send(connection, Response(201, method + "|" + auth + "|" + body), false);
      return true;
    } else if (line.find(" /big ") != std::string::npos) {
      Send(connection, Response(200, std::string(200000, 'x')), false);
    } else if (line.find(" /garbage ") != std::string::npos) {
      Send(connection, "this is not HTTP at all\r\n\r\n", true);
    } else if (line.find(" /close ") != std::string::npos) {
      connection.tcp.Close();
    }  // " /slow ": no answer at all
    return false;
  }

  uv::UvHandle<uv_tcp_t> listener_;
  std::vector<std::unique_ptr<Connection>> connections_;
  uint16_t port_ = 0;
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
