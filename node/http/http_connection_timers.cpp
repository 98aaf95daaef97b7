// HttpConnection's timers (http_connection.h): which deadline applies in each state, what
// happens when it passes, and since when a connection has waited for a request (for eviction
// at connections_max).
#include <algorithm>
#include <string>

#include "node/http/http_connection.h"
#include "node/http/http_server.h"
#include "node/spd_logger.h"

namespace skillnode::node::http {
namespace {

// A client that does not read our last answer is dropped after this.
constexpr transport::Duration kDrainTimeout = transport::Seconds(5);
// A lingering close waits this long for the client to close.
constexpr transport::Duration kLingerTimeout = transport::Seconds(2);

std::string MillisText(transport::Duration d) { return std::to_string(d.count() / 1000); }

}  // namespace

std::optional<transport::TimePoint> HttpConnection::waiting_since() const {
  if (closing_ || state_ != State::kReading) return std::nullopt;
  if (tls_ != nullptr && !tls_->handshake_done()) return accepted_;
  if (WriteQueueFull()) return StalledSince();
  if (reader_.state() == HttpRequestReader::State::kPartial) return request_started_;
  return last_activity_;
}

transport::TimePoint HttpConnection::StalledSince() const {
  return std::max(last_activity_, last_written_);
}

void HttpConnection::Evict() {
  if (closing_) return;
  server_.metrics().CountEvictedConnection();
  LogAt(server_.logger(), transport::LogLevel::kDebug,
        "HTTP connection from " + peer_.ToString() +
            " closed to make room: it waited longest for a request at the connection limit");
  Close();
}

void HttpConnection::ArmTimer() {
  if (closing_) return;
  const config::HttpConfig& config = server_.config();
  const transport::TimePoint now = server_.loop().Now();
  transport::TimePoint deadline = now + kDrainTimeout;
  std::string_view kind = "drain";
  if (state_ == State::kHandling) {
    deadline = request_complete_ + config.response_timeout;
    kind = "response";
  } else if (state_ == State::kLingering) {
    deadline = now + kLingerTimeout;
    kind = "drain";
  } else if (state_ == State::kStreaming) {
    deadline = now + kEventStreamKeepAlive;
    kind = "keepalive";
  } else if (state_ == State::kReading && tls_ != nullptr && !tls_->handshake_done()) {
    deadline = accepted_ + server_.handshake_timeout();
    kind = "handshake";
  } else if (state_ == State::kReading && WriteQueueFull()) {
    // Not reading until the client takes its answers: idle while it takes none.
    deadline = StalledSince() + config.idle_timeout;
    kind = "idle";
  } else if (state_ == State::kReading) {
    deadline = last_activity_ + config.idle_timeout;
    kind = "idle";
    if (reader_.state() == HttpRequestReader::State::kPartial) {
      deadline = std::min(deadline, request_started_ + config.request_timeout);
      kind = "request";
    }
  }
  timer_.Start(deadline - now, [this, kind] { OnTimeout(kind); });
}

void HttpConnection::OnTimeout(std::string_view kind) {
  if (closing_) return;
  const config::HttpConfig& config = server_.config();
  if (kind == "drain") return Close();
  if (kind == "handshake") {
    server_.metrics().CountTlsFailure("timeout");
    LogAt(server_.logger(), transport::LogLevel::kDebug,
          "HTTPS connection from " + peer_.ToString() + ": no TLS handshake within " +
              MillisText(server_.handshake_timeout()) + " ms, closed");
    return Close();
  }
  if (kind == "keepalive") {
    StreamWrite(": keep-alive\n\n");
    return ArmTimer();
  }
  server_.metrics().CountTimeout(kind);
  if (kind == "idle") {
    LogAt(server_.logger(), transport::LogLevel::kDebug,
          "HTTP connection from " + peer_.ToString() + " idle, closed");
    return Close();
  }
  if (kind == "request") {
    return FailRequest(
        408, "REQUEST_TIMEOUT",
        "request not received completely within " + MillisText(config.request_timeout) + " ms");
  }
  // A handler that never answered: answer for it and close (it may still be working).
  if (auto slot = slot_.lock()) {
    slot->answered = true;
    slot->deliver = nullptr;
  }
  current_.keep_alive = false;
  Deliver(HttpResponse::Error(504, "TIMEOUT",
                              "no answer within " + MillisText(config.response_timeout) + " ms",
                              {{"path", current_.path}}));
}

}  // namespace skillnode::node::http
