// ConnectionDeadlines (connection_deadlines.h): which deadline applies in each state of an HTTP
// connection, what happens when it passes, and since when the connection has waited.
#include "node/http/connection_deadlines.h"

#include <algorithm>
#include <cassert>

namespace skillnode::node::http {
namespace {

using State = ConnectionState;

std::string MillisText(transport::Duration d) { return std::to_string(d.count() / 1000); }

// While the client takes none of its answers (not reading meanwhile): since when it has been
// idle.
transport::TimePoint StalledSince(const ConnectionTimes& times) {
  return std::max(times.last_activity, times.last_written);
}

}  // namespace

ConnectionDeadlines::Limits ConnectionDeadlines::Limits::Of(const config::HttpConfig& config,
                                                            transport::Duration handshake_timeout) {
  Limits limits;
  limits.idle_timeout = config.idle_timeout;
  limits.request_timeout = config.request_timeout;
  limits.response_timeout = config.response_timeout;
  limits.handshake_timeout = handshake_timeout;
  return limits;
}

ConnectionDeadlines::Deadline ConnectionDeadlines::Next(const ConnectionPhase& phase,
                                                        const ConnectionTimes& times,
                                                        transport::TimePoint now) const {
  switch (phase.state) {
    case State::kHandling:
      return {times.request_complete + limits_.response_timeout, Kind::kResponse};
    case State::kDraining:
      return {now + limits_.drain_timeout, Kind::kDrain};
    case State::kLingering:
      return {now + limits_.linger_timeout, Kind::kLinger};
    case State::kStreaming:
      return {now + limits_.keep_alive_interval, Kind::kKeepAlive};
    case State::kClosed:
      break;
    case State::kReading:
      if (phase.handshaking) return {times.accepted + limits_.handshake_timeout, Kind::kHandshake};
      // Not reading until the client takes its answers: idle while it takes none.
      if (phase.write_queue_full) return {StalledSince(times) + limits_.idle_timeout, Kind::kIdle};
      if (phase.request_partial) {
        // A request still arriving is answered 408 at whichever passes first.
        return {std::min(times.last_activity + limits_.idle_timeout,
                         times.request_started + limits_.request_timeout),
                Kind::kRequest};
      }
      return {times.last_activity + limits_.idle_timeout, Kind::kIdle};
  }
  assert(false && "a closed connection has no deadline");
  return {now, Kind::kDrain};
}

ConnectionDeadlines::Expiry ConnectionDeadlines::Expire(Kind kind,
                                                        const transport::Endpoint& peer) const {
  Expiry expiry;
  switch (kind) {
    case Kind::kDrain:
    case Kind::kLinger:
      break;  // the client did not take the answer or did not close: nothing to say
    case Kind::kHandshake:
      expiry.tls_failure = "timeout";
      expiry.log = "HTTPS connection from " + peer.ToString() + ": no TLS handshake within " +
                   MillisText(limits_.handshake_timeout) + " ms, closed";
      break;
    case Kind::kKeepAlive:
      expiry.action = Action::kSendKeepAlive;
      break;
    case Kind::kIdle:
      expiry.timeout_metric = "idle";
      expiry.log = "HTTP connection from " + peer.ToString() + " idle, closed";
      break;
    case Kind::kRequest:
      expiry.action = Action::kFailRequest;
      expiry.timeout_metric = "request";
      expiry.status = 408;
      expiry.code = "REQUEST_TIMEOUT";
      expiry.message =
          "request not received completely within " + MillisText(limits_.request_timeout) + " ms";
      break;
    case Kind::kResponse:
      // A handler that never answered: answered for (it may still be working).
      expiry.action = Action::kAnswerForHandler;
      expiry.timeout_metric = "response";
      expiry.status = 504;
      expiry.code = "TIMEOUT";
      expiry.message = "no answer within " + MillisText(limits_.response_timeout) + " ms";
      break;
  }
  return expiry;
}

std::optional<transport::TimePoint> ConnectionDeadlines::WaitingSince(
    const ConnectionPhase& phase, const ConnectionTimes& times) {
  if (phase.state != State::kReading) return std::nullopt;
  if (phase.handshaking) return times.accepted;
  if (phase.write_queue_full) return StalledSince(times);
  if (phase.request_partial) return times.request_started;
  return times.last_activity;
}

}  // namespace skillnode::node::http
