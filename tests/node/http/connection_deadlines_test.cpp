// ConnectionDeadlines without a socket: which deadline an HTTP connection arms in each state,
// what it does when the deadline passes, and since when it counts as waiting for eviction.
#include "node/http/connection_deadlines.h"

#include <catch2/catch.hpp>
#include <optional>

namespace skillnode::node::http {
namespace {

using Action = ConnectionDeadlines::Action;
using Kind = ConnectionDeadlines::Kind;
using State = ConnectionState;

constexpr transport::TimePoint At(int64_t ms) {
  return transport::kTimeZero + transport::Millis(ms);
}

ConnectionDeadlines Deadlines() {
  config::HttpConfig config;
  config.idle_timeout = transport::Seconds(30);
  config.request_timeout = transport::Seconds(10);
  config.response_timeout = transport::Seconds(20);
  return ConnectionDeadlines(ConnectionDeadlines::Limits::Of(config, transport::Seconds(4)));
}

// Accepted at 1 s, request bytes from 3 s to 5 s, an answer taken at 6 s.
ConnectionTimes Times() {
  ConnectionTimes times;
  times.accepted = At(1000);
  times.request_started = At(3000);
  times.last_activity = At(5000);
  times.request_complete = At(5000);
  times.last_written = At(6000);
  return times;
}

ConnectionPhase Phase(State state) {
  ConnectionPhase phase;
  phase.state = state;
  return phase;
}

const transport::Endpoint kPeer(transport::Address::Loopback4(), 40000);

TEST_CASE("the limits come from node.http and the handshake timeout, the rest are defaults",
          "[unit]") {
  config::HttpConfig config;
  config.idle_timeout = transport::Seconds(7);
  config.request_timeout = transport::Seconds(8);
  config.response_timeout = transport::Seconds(9);
  const auto limits = ConnectionDeadlines::Limits::Of(config, transport::Seconds(3));
  CHECK(limits.idle_timeout == transport::Seconds(7));
  CHECK(limits.request_timeout == transport::Seconds(8));
  CHECK(limits.response_timeout == transport::Seconds(9));
  CHECK(limits.handshake_timeout == transport::Seconds(3));
  CHECK(limits.drain_timeout == transport::Seconds(5));
  CHECK(limits.linger_timeout == transport::Seconds(2));
  CHECK(limits.linger_bytes_max == 256 * 1024);
  CHECK(limits.keep_alive_interval == kEventStreamKeepAlive);
}

TEST_CASE("a connection waiting for a request closes idle_timeout after its last activity",
          "[unit]") {
  const auto next = Deadlines().Next(Phase(State::kReading), Times(), At(5500));
  CHECK(next.kind == Kind::kIdle);
  CHECK(next.at == At(5000) + transport::Seconds(30));
}

TEST_CASE("a request still arriving is due request_timeout after its first byte", "[unit]") {
  ConnectionPhase phase = Phase(State::kReading);
  phase.request_partial = true;
  const auto next = Deadlines().Next(phase, Times(), At(5500));
  CHECK(next.kind == Kind::kRequest);
  CHECK(next.at == At(3000) + transport::Seconds(10));
}

TEST_CASE("a request still arriving is answered 408 at the idle deadline when that comes first",
          "[unit]") {
  config::HttpConfig config;
  config.idle_timeout = transport::Seconds(2);
  config.request_timeout = transport::Seconds(10);
  const ConnectionDeadlines deadlines(
      ConnectionDeadlines::Limits::Of(config, transport::Seconds(4)));
  ConnectionPhase phase = Phase(State::kReading);
  phase.request_partial = true;
  const auto next = deadlines.Next(phase, Times(), At(5500));
  CHECK(next.kind == Kind::kRequest);
  CHECK(next.at == At(5000) + transport::Seconds(2));
}

TEST_CASE("a TLS handshake is due handshake_timeout after the accept, whatever else holds",
          "[unit]") {
  ConnectionPhase phase = Phase(State::kReading);
  phase.handshaking = true;
  phase.request_partial = true;
  phase.write_queue_full = true;
  const auto next = Deadlines().Next(phase, Times(), At(5500));
  CHECK(next.kind == Kind::kHandshake);
  CHECK(next.at == At(1000) + transport::Seconds(4));
  CHECK(ConnectionDeadlines::WaitingSince(phase, Times()) == At(1000));
}

TEST_CASE(
    "a client that takes none of its answers is idle from the later of its last request "
    "and the last answer it took",
    "[unit]") {
  ConnectionPhase phase = Phase(State::kReading);
  phase.write_queue_full = true;
  phase.request_partial = true;  // no request timeout while we are the ones not reading
  ConnectionTimes times = Times();
  auto next = Deadlines().Next(phase, times, At(6500));
  CHECK(next.kind == Kind::kIdle);
  CHECK(next.at == At(6000) + transport::Seconds(30));
  CHECK(ConnectionDeadlines::WaitingSince(phase, times) == At(6000));

  times.last_written = At(4000);
  next = Deadlines().Next(phase, times, At(6500));
  CHECK(next.at == At(5000) + transport::Seconds(30));
  CHECK(ConnectionDeadlines::WaitingSince(phase, times) == At(5000));
}

TEST_CASE("a handler must answer within response_timeout of the request's last byte", "[unit]") {
  const auto next = Deadlines().Next(Phase(State::kHandling), Times(), At(9000));
  CHECK(next.kind == Kind::kResponse);
  CHECK(next.at == At(5000) + transport::Seconds(20));
}

TEST_CASE("draining, lingering and streaming deadlines count from the moment they are armed",
          "[unit]") {
  const ConnectionDeadlines deadlines = Deadlines();
  auto next = deadlines.Next(Phase(State::kDraining), Times(), At(9000));
  CHECK(next.kind == Kind::kDrain);
  CHECK(next.at == At(9000) + transport::Seconds(5));
  next = deadlines.Next(Phase(State::kLingering), Times(), At(9000));
  CHECK(next.kind == Kind::kLinger);
  CHECK(next.at == At(9000) + transport::Seconds(2));
  next = deadlines.Next(Phase(State::kStreaming), Times(), At(9000));
  CHECK(next.kind == Kind::kKeepAlive);
  CHECK(next.at == At(9000) + kEventStreamKeepAlive);
}

TEST_CASE(
    "a connection waits from its last activity, or from the first byte of a partial "
    "request",
    "[unit]") {
  ConnectionPhase phase = Phase(State::kReading);
  CHECK(ConnectionDeadlines::WaitingSince(phase, Times()) == At(5000));
  phase.request_partial = true;
  CHECK(ConnectionDeadlines::WaitingSince(phase, Times()) == At(3000));
}

TEST_CASE("a connection handling, answering, streaming or closed is never waiting", "[unit]") {
  for (State state :
       {State::kHandling, State::kDraining, State::kLingering, State::kStreaming, State::kClosed}) {
    CHECK(ConnectionDeadlines::WaitingSince(Phase(state), Times()) == std::nullopt);
  }
}

TEST_CASE("a drain or linger deadline closes the connection without a word", "[unit]") {
  for (Kind kind : {Kind::kDrain, Kind::kLinger}) {
    const auto expiry = Deadlines().Expire(kind, kPeer);
    CHECK(expiry.action == Action::kClose);
    CHECK(expiry.timeout_metric.empty());
    CHECK(expiry.tls_failure.empty());
    CHECK(expiry.log.empty());
  }
}

TEST_CASE("an idle deadline closes the connection and counts an idle timeout", "[unit]") {
  const auto expiry = Deadlines().Expire(Kind::kIdle, kPeer);
  CHECK(expiry.action == Action::kClose);
  CHECK(expiry.timeout_metric == "idle");
  CHECK(expiry.tls_failure.empty());
  CHECK(expiry.log == "HTTP connection from 127.0.0.1:40000 idle, closed");
}

TEST_CASE("a handshake deadline closes the connection and counts a TLS failure", "[unit]") {
  const auto expiry = Deadlines().Expire(Kind::kHandshake, kPeer);
  CHECK(expiry.action == Action::kClose);
  CHECK(expiry.timeout_metric.empty());
  CHECK(expiry.tls_failure == "timeout");
  CHECK(expiry.log ==
        "HTTPS connection from 127.0.0.1:40000: no TLS handshake within 4000 ms, "
        "closed");
}

TEST_CASE("a request deadline answers 408 and counts a request timeout", "[unit]") {
  const auto expiry = Deadlines().Expire(Kind::kRequest, kPeer);
  CHECK(expiry.action == Action::kFailRequest);
  CHECK(expiry.timeout_metric == "request");
  CHECK(expiry.status == 408);
  CHECK(expiry.code == "REQUEST_TIMEOUT");
  CHECK(expiry.message == "request not received completely within 10000 ms");
  CHECK(expiry.log.empty());
}

TEST_CASE("a response deadline answers 504 for the handler and counts a response timeout",
          "[unit]") {
  const auto expiry = Deadlines().Expire(Kind::kResponse, kPeer);
  CHECK(expiry.action == Action::kAnswerForHandler);
  CHECK(expiry.timeout_metric == "response");
  CHECK(expiry.status == 504);
  CHECK(expiry.code == "TIMEOUT");
  CHECK(expiry.message == "no answer within 20000 ms");
}

TEST_CASE("an event stream's deadline sends a keep-alive and counts nothing", "[unit]") {
  const auto expiry = Deadlines().Expire(Kind::kKeepAlive, kPeer);
  CHECK(expiry.action == Action::kSendKeepAlive);
  CHECK(expiry.timeout_metric.empty());
  CHECK(expiry.tls_failure.empty());
}

TEST_CASE("a lingering close ends once it has dropped more than linger_bytes_max", "[unit]") {
  const ConnectionDeadlines deadlines = Deadlines();
  CHECK_FALSE(deadlines.LingerSpent(256 * 1024));
  CHECK(deadlines.LingerSpent(256 * 1024 + 1));
}

}  // namespace
}  // namespace skillnode::node::http
