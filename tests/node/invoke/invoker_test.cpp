// The Invoker (node/invoke/invoker.h) on a real loop, for what needs no provider: every check
// made before anything is sent ends with its own error kind, on the loop and never inside
// Start(); a refused connection is kConnect; Close() ends what runs with kCancelled, once; and
// every handle is closed at the end (uv_loop_close returns 0). The provider conversations are
// in invoke_test.py, against a real provider process.
#include "node/invoke/invoker.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_http_client.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::node::invoke {
namespace {

using nlohmann::json;

// A port on 127.0.0.1 nothing listens on: bound, then closed.
int ClosedPort(transport::uv::UvLoop& loop) {
  transport::uv::UvHandle<uv_tcp_t> tcp;
  REQUIRE(uv_tcp_init(loop.get(), tcp.get()) == 0);
  tcp.Initialized(nullptr);
  sockaddr_in addr{};
  uv_ip4_addr("127.0.0.1", 0, &addr);
  REQUIRE(uv_tcp_bind(tcp.get(), reinterpret_cast<const sockaddr*>(&addr), 0) == 0);
  sockaddr_storage bound{};
  int length = sizeof(bound);
  uv_tcp_getsockname(tcp.get(), reinterpret_cast<sockaddr*>(&bound), &length);
  return ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

struct Fixture {
  transport::uv::UvLoop loop;
  transport::uv::UvHttpClient http{loop, transport::uv::HttpClientConfig{}};
  Invoker invoker{loop, http};
  std::vector<InvokeResult> results;

  InvokeTarget Target(const std::string& endpoint) {
    InvokeTarget target;
    target.skill_id = "s";
    target.endpoint = endpoint;
    target.input_schema = R"({"type": "object", "required": ["text"]})";
    return target;
  }
  uint64_t Start(InvokeTarget target, json input,
                 transport::Duration deadline = transport::Seconds(5)) {
    InvokeOptions options;
    options.deadline = deadline;
    return invoker.Start(std::move(target), std::move(input), options, nullptr,
                         [this](InvokeResult result) { results.push_back(std::move(result)); });
  }
  // Runs the loop dry and closes everything; the loop must close clean.
  void Finish() {
    loop.Run();
    invoker.Close();
    http.Close();
    loop.Run();
    CHECK(loop.Close().clean());
  }
};

InvokeErrorKind KindOf(const InvokeResult& result) {
  REQUIRE_FALSE(result);
  return result.error().kind;
}

TEST_CASE("checks before sending end on the loop, each with its own kind", "[uv]") {
  Fixture f;
  f.Start(f.Target("127.0.0.1:9999"), json{{"text", "a"}});
  InvokeTarget restricted = f.Target("http://127.0.0.1:9/x");
  restricted.access = "restricted";
  f.Start(restricted, json{{"text", "a"}});
  f.Start(f.Target("http://127.0.0.1:9/x"), json{{"other", 1}});
  InvokeTarget broken = f.Target("http://127.0.0.1:9/x");
  broken.output_schema = R"({"type": "no-such-type"})";
  f.Start(broken, json{{"text", "a"}});
  CHECK(f.results.empty());  // never inside Start()
  CHECK(f.invoker.running() == 4);
  f.Finish();
  REQUIRE(f.results.size() == 4);
  CHECK(KindOf(f.results[0]) == InvokeErrorKind::kNotInvocable);
  CHECK(f.results[0].error().message.find("127.0.0.1:9999") != std::string::npos);
  CHECK(KindOf(f.results[1]) == InvokeErrorKind::kUnauthorized);
  CHECK(KindOf(f.results[2]) == InvokeErrorKind::kInputInvalid);
  CHECK(f.results[2].error().violations.size() == 1);
  CHECK(f.results[2].error().violations[0].pointer.empty());
  CHECK(KindOf(f.results[3]) == InvokeErrorKind::kOutputInvalid);
  CHECK(f.invoker.stats().failed[static_cast<size_t>(InvokeErrorKind::kInputInvalid)] == 1);
}

TEST_CASE("a refused connection is kConnect", "[uv]") {
  Fixture f;
  const int port = ClosedPort(f.loop);
  f.Start(f.Target("http://127.0.0.1:" + std::to_string(port) + "/x"), json{{"text", "a"}});
  f.Finish();
  REQUIRE(f.results.size() == 1);
  CHECK(KindOf(f.results[0]) == InvokeErrorKind::kConnect);
}

TEST_CASE("Close ends running invocations with kCancelled, once; Cancel ends them silently",
          "[uv]") {
  Fixture f;
  // 192.0.2.1 (TEST-NET-1) is never routed: the connection attempt stays pending.
  const uint64_t cancelled = f.Start(f.Target("http://192.0.2.1:9/x"), json{{"text", "a"}});
  f.Start(f.Target("http://192.0.2.1:9/x"), json{{"text", "b"}});
  f.invoker.Cancel(cancelled);
  CHECK(f.invoker.running() == 1);
  f.invoker.Close();
  REQUIRE(f.results.size() == 1);
  CHECK(KindOf(f.results[0]) == InvokeErrorKind::kCancelled);
  f.invoker.Close();  // idempotent
  CHECK(f.results.size() == 1);
  f.Finish();
  CHECK(f.results.size() == 1);
}

TEST_CASE("the deadline ends an invocation that gets no answer", "[uv]") {
  Fixture f;
  f.Start(f.Target("http://192.0.2.1:9/x"), json{{"text", "a"}}, transport::Millis(50));
  f.Finish();
  REQUIRE(f.results.size() == 1);
  // Where the network refuses TEST-NET-1 at once, the attempt fails before the deadline.
  const InvokeErrorKind kind = KindOf(f.results[0]);
  CHECK((kind == InvokeErrorKind::kTimeout || kind == InvokeErrorKind::kConnect));
  if (kind == InvokeErrorKind::kTimeout) {
    CHECK(f.results[0].error().message.find("deadline of 50 ms") != std::string::npos);
  }
}

}  // namespace
}  // namespace skillnode::node::invoke
