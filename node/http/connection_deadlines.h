// ConnectionDeadlines: the deadline policy of one HTTP connection (http_connection.h).
//
// Given the connection's state and the moments it counts from, it says which deadline applies
// now (idle, request, response, handshake, drain, linger, or the event stream's keep-alive),
// what the connection does when it passes, and since when the connection has waited for a
// request (for eviction at connections_max, http_server.h). It never touches a socket or a
// clock: the connection hands it the time and arms its own timer. Each limit is in Limits,
// read from HttpConfig and the HTTPS listener's handshake timeout; those the configuration does
// not name keep their defaults here. A value type, owned by its HttpConnection.
#ifndef SKILLNODE_NODE_HTTP_CONNECTION_DEADLINES_H_
#define SKILLNODE_NODE_HTTP_CONNECTION_DEADLINES_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "node/config/config.h"
#include "node/http/event_stream.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::node::http {

// What an HTTP connection is doing; exactly one at a time.
enum class ConnectionState {
  kReading,    // waiting for (more of) a request
  kHandling,   // a handler has the request; not reading
  kDraining,   // the last answer is being written; linger when it is out
  kLingering,  // answer sent and FIN queued: the client's unread bytes are drained, so that
               // closing does not reset the connection before the client reads the answer
  kStreaming,  // an event stream is open: events go out as the handler sends them
  kClosed,     // closed (or closing: its handle's close callback is due); nothing more happens
};

// The moments a connection's deadlines count from.
struct ConnectionTimes {
  transport::TimePoint accepted =
      transport::kTimeZero;  // the TCP accept (the TLS handshake counts from it)
  transport::TimePoint last_activity =
      transport::kTimeZero;  // bytes last read, or the last answer handed over
  transport::TimePoint request_started =
      transport::kTimeZero;  // first byte of the request being read
  transport::TimePoint request_complete =
      transport::kTimeZero;  // last byte of the request being handled
  transport::TimePoint last_written =
      transport::kTimeZero;  // the client last took some of our answers
};

// What else the deadline depends on, at one moment.
struct ConnectionPhase {
  ConnectionState state = ConnectionState::kReading;
  bool handshaking = false;       // HTTPS, and the TLS handshake has not completed
  bool write_queue_full = false;  // more than write_queue_bytes_max of answers not taken
  bool request_partial = false;   // part of a request has arrived
};

class ConnectionDeadlines {
 public:
  struct Limits {
    transport::Duration idle_timeout = transport::Seconds(30);
    transport::Duration request_timeout = transport::Seconds(10);
    transport::Duration response_timeout = transport::Seconds(30);
    transport::Duration handshake_timeout = transport::Seconds(10);
    // A client that does not take our last answer is dropped after this.
    transport::Duration drain_timeout = transport::Seconds(5);
    // A lingering close waits this long for the client to close...
    transport::Duration linger_timeout = transport::Seconds(2);
    // ...and drops at most this much of what the client still sends.
    size_t linger_bytes_max = 256 * 1024;
    // An open event stream sends a comment this often, so that proxies keep it open.
    transport::Duration keep_alive_interval = kEventStreamKeepAlive;

    // node.http's timeouts and the HTTPS listener's handshake timeout; the rest as above.
    static Limits Of(const config::HttpConfig& config, transport::Duration handshake_timeout);
  };

  enum class Kind { kIdle, kRequest, kResponse, kHandshake, kDrain, kLinger, kKeepAlive };

  struct Deadline {
    transport::TimePoint at;
    Kind kind;
  };

  // What the connection does when a deadline passes.
  enum class Action {
    kClose,             // close at once
    kSendKeepAlive,     // send the event stream's keep-alive comment; arm the next deadline
    kFailRequest,       // answer the request still arriving with `status`, and close
    kAnswerForHandler,  // answer `status` in place of the handler that did not, and close
  };

  struct Expiry {
    Action action = Action::kClose;
    std::string_view timeout_metric;  // HttpMetrics::CountTimeout's kind; empty: not counted
    std::string_view tls_failure;     // HttpMetrics::CountTlsFailure's reason; empty: none
    std::string log;                  // the debug line to log; empty: none
    int status = 0;                   // the answer (kFailRequest, kAnswerForHandler)
    std::string_view code;
    std::string message;
  };

  explicit ConnectionDeadlines(const Limits& limits) : limits_(limits) {}

  // The deadline that applies now. Those of draining, lingering and streaming count from
  // `now`, the moment they are armed. Never for a closed connection.
  Deadline Next(const ConnectionPhase& phase, const ConnectionTimes& times,
                transport::TimePoint now) const;
  // What to do when a deadline of `kind` has passed on the connection from `peer`.
  Expiry Expire(Kind kind, const transport::Endpoint& peer) const;
  // Since when the connection has waited for a request: the accept while a TLS handshake is
  // due, the stall while the client takes none of its answers, the first byte of a request
  // still arriving, else the last activity. Nullopt unless reading: a connection handling a
  // request, sending an answer or streaming is never evicted.
  static std::optional<transport::TimePoint> WaitingSince(const ConnectionPhase& phase,
                                                          const ConnectionTimes& times);
  // Whether a lingering close that has dropped `lingered_bytes` of the client's ends at once
  // (more than linger_bytes_max).
  bool LingerSpent(size_t lingered_bytes) const {
    return lingered_bytes > limits_.linger_bytes_max;
  }

 private:
  Limits limits_;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_CONNECTION_DEADLINES_H_
