// The libuv Env on real sockets (127.0.0.1 and ::1): UDP both ways, timers, the resolver, and
// two Kademlia nodes joining over loopback. Each case ends with every handle closed and
// uv_loop_close returning 0.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kademlia/node.h"
#include "transport/uv/udp_transport.h"
#include "transport/uv/uv_env.h"
#include "transport/uv/uv_loop.h"
#include "transport/uv/uv_resolver.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::transport {
namespace {

// Stops a test loop after `limit` even if the case never finishes (then it fails).
constexpr Duration kCaseLimit = Seconds(10);

uv::UdpOptions Loopback4() {
  uv::UdpOptions options;
  options.bind_v4 = Address::Loopback4();
  options.bind_v6.reset();
  return options;
}

std::vector<uint8_t> Bytes(const std::string& text) { return {text.begin(), text.end()}; }

TEST_CASE("two UDP transports exchange datagrams on 127.0.0.1 and close cleanly", "[uv]") {
  uv::UvLoop loop;
  NullLogger logger;
  uv::UdpTransport a(loop, logger), b(loop, logger);
  uv::UvTimer limit(loop);
  std::vector<std::string> got_by_b;
  std::optional<Endpoint> a_seen_from;
  auto close_all = [&] {
    a.Close();
    b.Close();
    limit.Close();
  };
  REQUIRE(a.Open(Loopback4(), [&](const Endpoint&, std::span<const uint8_t> bytes) {
    CHECK(std::string(bytes.begin(), bytes.end()) == "pong");
    close_all();
  }));
  REQUIRE(b.Open(Loopback4(), [&](const Endpoint& from, std::span<const uint8_t> bytes) {
    got_by_b.emplace_back(bytes.begin(), bytes.end());
    a_seen_from = from;
    if (got_by_b.size() == 3) b.Send(from, Bytes("pong"));
  }));
  CHECK(a.port() != 0);
  CHECK(a.local_endpoints().size() == 1);
  CHECK(b.batched_receive());
  const Endpoint to_b = b.local_endpoints().at(0);
  const Endpoint at_a = a.local_endpoints().at(0);
  for (const char* text : {"one", "two", "three"}) a.Send(to_b, Bytes(text));
  limit.Start(kCaseLimit, [&] {
    FAIL_CHECK("no reply within the limit");
    close_all();
  });
  loop.Run();
  CHECK(got_by_b == std::vector<std::string>{"one", "two", "three"});
  REQUIRE(a_seen_from.has_value());
  CHECK(*a_seen_from == at_a);
  CHECK(b.stats().datagrams_received == 3);
  CHECK(a.stats().sent_immediately + a.stats().sent_queued == 3);
  const uv::LoopCloseReport report = loop.Close();
  CHECK(report.leaked_handles.empty());
  CHECK(report.close_result == 0);
}

TEST_CASE("IPv6 loopback carries datagrams on its own socket when IPv6 is available", "[uv]") {
  uv::UvLoop loop;
  NullLogger logger;
  uv::UdpTransport a(loop, logger), b(loop, logger);
  uv::UdpOptions options;
  options.bind_v4 = Address::Loopback4();
  options.bind_v6 = Address::Parse("::1").value();
  options.ipv6_optional = false;
  auto opened = a.Open(options, [](const Endpoint&, std::span<const uint8_t>) {});
  if (!opened) {
    WARN("IPv6 loopback unavailable here: " << opened.error().message);
    a.Close();
    loop.Run();
    CHECK(loop.Close().clean());
    return;
  }
  CHECK(a.has_ipv6());
  CHECK(a.local_endpoints().size() == 2);
  CHECK(a.local_endpoints()[0].port() == a.local_endpoints()[1].port());
  std::optional<Endpoint> from_seen;
  REQUIRE(b.Open(options, [&](const Endpoint& from, std::span<const uint8_t>) {
    from_seen = from;
    a.Close();
    b.Close();
  }));
  a.Send(b.local_endpoints()[1], Bytes("over v6"));
  loop.Run();
  REQUIRE(from_seen.has_value());
  CHECK_FALSE(from_seen->address().is_v4());
  CHECK(loop.Close().clean());
}

TEST_CASE("datagrams over the size limit are dropped and counted, not delivered", "[uv]") {
  uv::UvLoop loop;
  NullLogger logger;
  uv::UdpTransport a(loop, logger), b(loop, logger);
  size_t delivered = 0;
  uv::UdpOptions small = Loopback4();
  small.datagram_size_max = 100;
  REQUIRE(a.Open(Loopback4(), [](const Endpoint&, std::span<const uint8_t>) {}));
  REQUIRE(b.Open(small, [&](const Endpoint&, std::span<const uint8_t> bytes) {
    ++delivered;
    CHECK(bytes.size() == 10);
    a.Close();
    b.Close();
  }));
  a.Send(b.local_endpoints()[0], std::vector<uint8_t>(500, 1));
  a.Send(b.local_endpoints()[0], std::vector<uint8_t>(10, 2));
  a.Send(Endpoint(Address::Parse("::1").value(), 9), Bytes("no v6 socket"));
  CHECK(a.stats().send_no_socket == 1);
  loop.Run();
  CHECK(delivered == 1);
  CHECK(b.stats().dropped_oversize == 1);
  CHECK(loop.Close().clean());
}

TEST_CASE("a timer fires once after its delay; a stopped or closed one never fires", "[uv]") {
  uv::UvLoop loop;
  uv::UvTimer fires(loop), stopped(loop), closed(loop);
  int fired = 0;
  const TimePoint start = loop.Now();
  TimePoint fired_at = kTimeZero;
  fires.Start(Millis(20), [&] {
    ++fired;
    fired_at = loop.Now();
    fires.Close();
    stopped.Close();
  });
  stopped.Start(Millis(5), [&] { FAIL_CHECK("a stopped timer fired"); });
  stopped.Stop();
  closed.Start(Millis(5), [&] { FAIL_CHECK("a closed timer fired"); });
  closed.Close();
  loop.Run();
  CHECK(fired == 1);
  CHECK(fired_at - start >= Millis(20));
  CHECK(loop.Close().clean());
}

TEST_CASE("the resolver finds localhost; closing it cancels and later calls fail at once", "[uv]") {
  uv::UvLoop loop;
  uv::UvResolver resolver(loop);
  std::optional<Result<std::vector<Endpoint>>> answer;
  resolver.Resolve(HostPort{"localhost", 6881},
                   [&](Result<std::vector<Endpoint>> result) { answer = std::move(result); });
  CHECK(resolver.pending() == 1);
  loop.Run();
  REQUIRE(answer.has_value());
  REQUIRE(answer->has_value());
  for (const Endpoint& e : **answer) {
    CHECK(e.address().IsLoopback());
    CHECK(e.port() == 6881);
  }
  resolver.Close();
  bool cancelled = false;
  resolver.Resolve(HostPort{"localhost", 1}, [&](Result<std::vector<Endpoint>> result) {
    cancelled = !result && result.error().code == ErrorCode::kCancelled;
  });
  CHECK(cancelled);
  CHECK(loop.Close().clean());
}

TEST_CASE("the Env drives two Kademlia nodes over loopback UDP: one joins the other", "[uv]") {
  NullLogger logger;
  uv::UvEnv env(logger, 99);
  uv::UdpTransport second_udp(env.loop(), logger);
  kademlia::KademliaConfig config;
  kademlia::Node first(config, kademlia::Identity::Generate(), env.udp(), env.rng(), logger,
                       env.Now());
  kademlia::Node second(config, kademlia::Identity::Generate(), second_udp, env.rng(), logger,
                        env.Now());
  REQUIRE(env.udp().Open(Loopback4(), [&](const Endpoint& from, std::span<const uint8_t> b) {
    first.OnDatagram(env.Now(), from, b);
  }));
  REQUIRE(second_udp.Open(Loopback4(), [&](const Endpoint& from, std::span<const uint8_t> b) {
    second.OnDatagram(env.Now(), from, b);
  }));
  for (kademlia::Node* node : {&first, &second}) {
    env.AddStepper(
        {[node] { return node->NextDeadline(); }, [node](TimePoint now) { node->OnTimer(now); }});
  }
  uv::UvTimer limit(env.loop());
  auto finish = [&] {
    first.Shutdown(env.Now());
    second.Shutdown(env.Now());
    second_udp.Close();
    limit.Close();
    env.Close();
  };
  std::optional<size_t> joined;
  const Endpoint seed = env.udp().local_endpoints()[0];
  second.Join(env.Now(), std::span(&seed, 1), [&](size_t contacts) {
    joined = contacts;
    finish();
  });
  limit.Start(kCaseLimit, [&] {
    FAIL_CHECK("no join within the limit");
    finish();
  });
  env.Start();
  env.loop().Run();
  REQUIRE(joined.has_value());
  CHECK(*joined == 1);
  CHECK(first.routing_table().size() == 1);  // the joiner proved its key and was added
  CHECK(env.CloseLoop().clean());
}

}  // namespace
}  // namespace skillnode::transport
