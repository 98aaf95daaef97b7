// HttpCall and CallNode (node/cli/http_call.h) against a real HTTP server on 127.0.0.1
// (UvHttpTestServer on a loop of its own thread, as a node's API is to a client subcommand): what
// a request sends, the answer's status, body and type, an answer over kAnswerBodyMax, and
// CallNode's messages for a node it cannot reach and an answer that is not JSON.
#include "node/cli/http_call.h"

#include <curl/curl.h>
#include <uv.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "support/uv_http_test_server.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::node::cli {
namespace {

using Catch::Matchers::Contains;
using testing::HttpTestReply;
using testing::HttpTestResponse;
using testing::UvHttpTestServer;

// The server on a loop run by a thread of its own, so that the blocking client can be called
// from the test's thread; stopped through a uv_async_t, the loop's one thread-safe door.
class ServerThread {
 public:
  explicit ServerThread(UvHttpTestServer::Handler handler) : server_(loop_, std::move(handler)) {
    REQUIRE(uv_async_init(loop_.get(), &stop_, &OnStop) == 0);
    stop_.data = this;
    thread_ = std::thread([this] { loop_.Run(); });
  }
  ServerThread(const ServerThread&) = delete;
  ServerThread& operator=(const ServerThread&) = delete;
  ~ServerThread() {
    uv_async_send(&stop_);
    thread_.join();
  }

  std::string Url(const std::string& path) const { return server_.Url(path); }
  std::string Base() const { return server_.Url(""); }

 private:
  static void OnStop(uv_async_t* async) {
    auto* self = static_cast<ServerThread*>(async->data);
    self->server_.Close();
    uv_close(reinterpret_cast<uv_handle_t*>(async), nullptr);
  }

  transport::uv::UvLoop loop_;
  UvHttpTestServer server_;
  uv_async_t stop_{};
  std::thread thread_;
};

// What the server saw of the last request (written on the loop's thread).
struct Seen {
  std::mutex mutex;
  std::string request_line;
  std::string head;
  std::string body;

  void Record(const std::string& line, const std::string& h, const std::string& b) {
    const std::lock_guard lock(mutex);
    request_line = line;
    head = h;
    body = b;
  }
};

const HttpCallOptions kOptions{transport::Seconds(5), ""};

struct CurlGlobal {
  CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
  ~CurlGlobal() { curl_global_cleanup(); }
};

TEST_CASE("HttpCall sends the method, body and headers, and returns status, body and type",
          "[unit][cli]") {
  const CurlGlobal curl;
  Seen seen;
  ServerThread server(
      [&seen](const std::string& line, const std::string& head, const std::string& body) {
        seen.Record(line, head, body);
        return HttpTestReply{HttpTestReply::Action::kSend, HttpTestResponse(201, "made")};
      });

  auto got = HttpCall("POST", server.Url("/api/skills"), std::string(R"({"a":1})"), kOptions,
                      {"X-Extra: yes"});
  REQUIRE(got);
  CHECK(got->status == 201);
  CHECK(got->body == "made");
  CHECK(got->content_type == "text/plain");
  {
    const std::lock_guard lock(seen.mutex);
    CHECK(seen.request_line == "POST /api/skills HTTP/1.1");
    CHECK_THAT(seen.head, Contains("Content-Type: application/json"));
    CHECK_THAT(seen.head, Contains("X-Extra: yes"));
    CHECK(seen.body == R"({"a":1})");
  }

  // A Content-Type line of the caller's replaces the JSON one.
  got = HttpCall("PUT", server.Url("/x"), std::string("text"), kOptions,
                 {"Content-Type: text/markdown"});
  REQUIRE(got);
  const std::lock_guard lock(seen.mutex);
  CHECK(seen.request_line == "PUT /x HTTP/1.1");
  CHECK_THAT(seen.head, Contains("Content-Type: text/markdown"));
  CHECK_THAT(seen.head, !Contains("application/json"));
}

// The server's write to a client that gave up fails with EPIPE, not a SIGPIPE (as the daemon
// sets it up, node/main.cpp).
struct IgnoreSigpipe {
  IgnoreSigpipe() : old(std::signal(SIGPIPE, SIG_IGN)) {}
  ~IgnoreSigpipe() { std::signal(SIGPIPE, old); }
  void (*old)(int);
};

TEST_CASE("HttpCall fails an answer longer than kAnswerBodyMax", "[unit][cli]") {
  const CurlGlobal curl;
  const IgnoreSigpipe no_sigpipe;
  ServerThread server([](const std::string&, const std::string&, const std::string&) {
    return HttpTestReply{HttpTestReply::Action::kSendAndClose,
                         HttpTestResponse(200, std::string(kAnswerBodyMax + 1, 'x'))};
  });
  auto got = HttpGet(server.Url("/big"), kOptions);
  REQUIRE_FALSE(got);
  CHECK(got.error().code == transport::ErrorCode::kIo);
}

TEST_CASE("CallNode parses any status's JSON and names what went wrong otherwise", "[unit][cli]") {
  const CurlGlobal curl;
  ServerThread server([](const std::string& line, const std::string&, const std::string&) {
    if (line.starts_with("GET /ok ")) {
      return HttpTestReply{HttpTestReply::Action::kSend, HttpTestResponse(200, R"({"id":"ab"})")};
    }
    if (line.starts_with("GET /missing ")) {
      return HttpTestReply{HttpTestReply::Action::kSend,
                           HttpTestResponse(404, R"({"message":"no such skill"})")};
    }
    return HttpTestReply{HttpTestReply::Action::kSend, HttpTestResponse(200, "<html>")};
  });

  auto got = CallNode("GET", server.Base(), "/ok", std::nullopt, kOptions);
  REQUIRE(got);
  CHECK(got->status == 200);
  CHECK(got->body == nlohmann::json{{"id", "ab"}});

  got = CallNode("GET", server.Base(), "/missing", std::nullopt, kOptions);
  REQUIRE(got);
  CHECK(got->status == 404);
  CHECK(got->body["message"] == "no such skill");

  got = CallNode("GET", server.Base(), "/page", std::nullopt, kOptions);
  REQUIRE_FALSE(got);
  CHECK(got.error().code == transport::ErrorCode::kParse);
  CHECK(got.error().message ==
        server.Base() + "/page answered 200 with something that is not JSON");
}

TEST_CASE("CallNode says it cannot reach a node where nothing listens", "[unit][cli]") {
  const CurlGlobal curl;
  std::string base;
  {
    // A port that was free a moment ago: its server is gone.
    ServerThread gone(
        [](const std::string&, const std::string&, const std::string&) { return HttpTestReply{}; });
    base = gone.Base();
  }
  auto got = CallNode("GET", base, "/api/node", std::nullopt, kOptions);
  REQUIRE_FALSE(got);
  CHECK_THAT(got.error().message, Contains("cannot reach a node at " + base + ": "));
  CHECK_THAT(got.error().message, Contains("is `skillnode run` running there?"));
}

}  // namespace
}  // namespace skillnode::node::cli
