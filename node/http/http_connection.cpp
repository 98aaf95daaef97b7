// HttpConnection (http_connection.h). Which deadline applies when is ConnectionDeadlines'
// (connection_deadlines.h); the connection arms its timer and does what passing it asks.
#include "node/http/http_connection.h"

#include <cassert>
#include <cstdio>
#include <utility>

#include "node/http/http_server.h"
#include "node/spd_logger.h"
#include "transport/uv/sockaddr.h"

namespace skillnode::node::http {
namespace {

constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

// "0.37" (milliseconds, two decimals) for log lines.
std::string MillisDecimal(transport::Duration d) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", transport::ToMillis(d));
  return text;
}

}  // namespace

HttpConnection::HttpConnection(HttpServer& server)
    : server_(server),
      writer_([this](int status) { OnWritten(status); },
              [this](int status) {  // the FIN of a lingering close
                if (status < 0 && state_ != State::kClosed) Close();
              }),
      deadlines_(ConnectionDeadlines::Limits::Of(server.config(), server.handshake_timeout())),
      timer_(server.loop()),
      reader_(server.config().header_bytes_max, server.config().body_bytes_max,
              [&server](std::string_view method, std::string_view path) {
                return server.BodyBytesMaxFor(method, path);
              }) {}

HttpConnection::~HttpConnection() = default;

bool HttpConnection::Accept(uv_stream_t* listener) {
  if (uv_tcp_init(server_.loop().get(), &tcp_) != 0) {
    Close();
    return false;
  }
  tcp_initialized_ = true;
  tcp_.data = this;
  writer_.Attach(reinterpret_cast<uv_stream_t*>(&tcp_));
  if (uv_accept(listener, reinterpret_cast<uv_stream_t*>(&tcp_)) != 0) {
    Close();
    return false;
  }
  uv_tcp_nodelay(&tcp_, 1);
  sockaddr_storage address{};
  int length = sizeof(address);
  if (uv_tcp_getpeername(&tcp_, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    if (auto endpoint = transport::uv::FromSockaddr(reinterpret_cast<sockaddr*>(&address)))
      peer_ = *endpoint;
  }
  times_.last_activity = times_.accepted = server_.loop().Now();
  return true;
}

void HttpConnection::Start() {
  if (server_.tls() != nullptr) {
    tls_ = std::make_unique<TlsChannel>(server_.tls(), server_.local_endpoint().ToString());
  }
  SetReading(true);
  ArmTimer();
}

void HttpConnection::Reject(const HttpResponse& response) {
  // A TLS client could not read a plain answer, and a handshake would cost what the limit
  // protects: it is closed at once, with no answer to count (the rejection itself is counted).
  if (server_.tls() != nullptr) return Close();
  server_.metrics().Record("-", kUnmatchedRoute, response.status, transport::Duration(0));
  Write(SerializeResponse(response, false, false));
  CloseAfterWrites();
}

void HttpConnection::Close() {
  if (state_ == State::kClosed) return;
  if (state_ == State::kLingering) server_.EndLinger();
  state_ = State::kClosed;
  timer_.Close();
  if (auto slot = slot_.lock()) {  // a late answer goes nowhere
    slot->deliver = nullptr;
    slot->start_stream = nullptr;
  }
  if (stream_ != nullptr) {
    auto stream = std::move(stream_);
    stream->write = nullptr;
    stream->end = nullptr;
    auto closed = std::move(stream->on_closed);
    stream->on_closed = nullptr;
    if (closed) closed();
  }
  if (!tcp_initialized_) {
    server_.Forget(this);  // libuv never knew the handle: nothing to wait for
    return;
  }
  server_.BeginClose();
  uv_close(reinterpret_cast<uv_handle_t*>(&tcp_), &HttpConnection::OnClosed);
}

void HttpConnection::OnClosed(uv_handle_t* handle) {
  auto* self = static_cast<HttpConnection*>(handle->data);
  self->server_.EndClose();
  self->server_.Forget(self);  // deletes self
}

void HttpConnection::SetReading(bool reading) {
  if (state_ == State::kClosed || reading == reading_) return;
  auto* stream = reinterpret_cast<uv_stream_t*>(&tcp_);
  if (reading) {
    if (uv_read_start(stream, &HttpConnection::OnAlloc, &HttpConnection::OnRead) != 0) {
      return Close();
    }
  } else {
    uv_read_stop(stream);
  }
  reading_ = reading;
}

void HttpConnection::OnAlloc(uv_handle_t* handle, size_t /*suggested*/, uv_buf_t* buf) {
  auto* self = static_cast<HttpConnection*>(handle->data);
  *buf = uv_buf_init(self->server_.read_buffer(), kHttpReadBufferBytes);
}

void HttpConnection::OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  auto* self = static_cast<HttpConnection*>(stream->data);
  if (self->state_ == State::kClosed || nread == 0) return;
  if (nread > 0 && self->state_ == State::kLingering) {
    self->lingered_bytes_ += static_cast<size_t>(nread);
    if (self->deadlines_.LingerSpent(self->lingered_bytes_)) self->Close();
    return;
  }
  if (nread > 0) {
    const std::string_view bytes(buf->base, static_cast<size_t>(nread));
    if (self->tls_ != nullptr) return self->ReceiveTls(bytes);
    return self->ReceivePlain(bytes);
  }
  // End of stream or a reset: answers already queued still go out on a clean end.
  self->SetReading(false);
  if (nread == UV_EOF && self->writer_.in_flight() > 0) return self->CloseAfterWrites();
  self->Close();
}

void HttpConnection::ReceivePlain(std::string_view bytes) {
  if (state_ == State::kStreaming) return;  // nothing more is expected
  pending_.append(bytes);
  times_.last_activity = server_.loop().Now();
  Consume();
}

void HttpConnection::Consume() {
  consuming_ = true;
  while (state_ == State::kReading && !pending_.empty()) {
    const bool was_idle = reader_.state() == HttpRequestReader::State::kIdle;
    const size_t used = reader_.Feed(pending_);
    pending_.erase(0, used);
    if (was_idle && reader_.state() != HttpRequestReader::State::kIdle) {
      times_.request_started = server_.loop().Now();
    }
    if (reader_.TakeContinue()) Write(std::string(kContinue));
    if (reader_.state() == HttpRequestReader::State::kFailed) {
      const HttpReadError& error = reader_.error();
      FailRequest(error.status, error.code, error.message);
      break;
    }
    if (reader_.state() != HttpRequestReader::State::kComplete) break;  // needs more bytes
    Dispatch(reader_.Take());     // a synchronous answer puts us back in kReading
    if (WriteQueueFull()) break;  // read on when the client has taken its answers (OnWritten)
  }
  consuming_ = false;
  if (state_ == State::kClosed) return;
  SetReading(state_ == State::kStreaming || (state_ == State::kReading && !WriteQueueFull()));
  ArmTimer();
}

void HttpConnection::Dispatch(HttpRequest request) {
  assert(state_ == State::kReading && "one request at a time");
  state_ = State::kHandling;
  times_.request_complete = server_.loop().Now();
  current_ = std::move(request);
  current_.peer = peer_;
  current_.secure = tls_ != nullptr;
  auto slot = std::make_shared<ResponseSlot>();
  slot->deliver = [this](HttpResponse response) { Deliver(std::move(response)); };
  slot->start_stream = [this] { return StartStream(); };
  slot_ = slot;
  ArmTimer();
  // Reading goes on here: most answers come at once, and stopping and restarting the reads
  // would cost two epoll_ctl calls per request. Consume() stops it after a request whose
  // answer waits, so that a client cannot pile up requests meanwhile.
  server_.Route(current_, Responder(std::move(slot)));
}

std::shared_ptr<StreamSlot> HttpConnection::StartStream() {
  if (state_ != State::kHandling) return nullptr;
  slot_.reset();
  server_.metrics().Record(current_.method, current_.route, 200,
                           server_.loop().Now() - times_.request_complete);
  Write(
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
      "Connection: close\r\nX-Accel-Buffering: no\r\n\r\n");
  if (state_ == State::kClosed) return nullptr;  // the write failed: no stream to hand out
  state_ = State::kStreaming;
  stream_ = std::make_shared<StreamSlot>();
  stream_->write = [this](std::string bytes) { StreamWrite(std::move(bytes)); };
  stream_->end = [this] {
    stream_.reset();
    CloseAfterWrites();
  };
  SetReading(true);  // to see the client go
  ArmTimer();
  return stream_;
}

void HttpConnection::StreamWrite(std::string bytes) {
  if (state_ != State::kStreaming) return;
  if (writer_.queued_bytes() + bytes.size() > kEventStreamQueueBytesMax) {
    LogAt(server_.logger(), transport::LogLevel::kInfo,
          "event stream to " + peer_.ToString() + " dropped: the client reads too slowly");
    return Close();
  }
  Write(std::move(bytes));
}

void HttpConnection::Deliver(HttpResponse response) {
  if (state_ != State::kHandling) return;
  slot_.reset();
  const transport::Duration latency = server_.loop().Now() - times_.request_complete;
  server_.metrics().Record(current_.method, current_.route, response.status, latency);
  transport::Logger& logger = server_.logger();
  if (logger.Enabled(transport::LogLevel::kDebug)) {
    logger.Log(transport::LogLevel::kDebug, "HTTP " + current_.method + " " + current_.target +
                                                " -> " + std::to_string(response.status) + " in " +
                                                MillisDecimal(latency) + " ms for " +
                                                peer_.ToString());
  }
  const bool keep_alive = current_.keep_alive && !server_.stopping();
  Write(SerializeResponse(response, keep_alive, current_.method == "HEAD"));
  current_ = HttpRequest();
  if (state_ == State::kClosed) return;  // the write failed
  if (!keep_alive) return CloseAfterWrites();
  state_ = State::kReading;
  times_.last_activity = server_.loop().Now();
  if (!consuming_) Consume();  // pipelined requests already read, then read on
}

void HttpConnection::AnswerForHandler(int status, std::string_view code,
                                      const std::string& message) {
  if (auto slot = slot_.lock()) {  // it may still be working: its answer goes nowhere
    slot->answered = true;
    slot->deliver = nullptr;
  }
  current_.keep_alive = false;
  Deliver(HttpResponse::Error(status, code, message, {{"path", current_.path}}));
}

void HttpConnection::FailRequest(int status, std::string_view code, const std::string& message) {
  server_.metrics().Record(current_.method.empty() ? "-" : current_.method, kUnmatchedRoute, status,
                           transport::Duration(0));
  LogAt(server_.logger(), transport::LogLevel::kDebug,
        "HTTP " + std::to_string(status) + " to " + peer_.ToString() + ": " + message);
  Write(SerializeResponse(HttpResponse::Error(status, code, message), false, false));
  CloseAfterWrites();
}

void HttpConnection::Write(std::string bytes) {
  if (state_ == State::kClosed) return;
  if (tls_ == nullptr) return WriteRaw(std::move(bytes));
  transport::Result<std::string> ciphertext = tls_->Encrypt(bytes);
  if (ciphertext) return WriteRaw(std::move(*ciphertext));
  LogAt(server_.logger(), transport::LogLevel::kDebug,
        "HTTPS connection to " + peer_.ToString() + ": " + ciphertext.error().message);
  Close();
}

void HttpConnection::WriteRaw(std::string bytes) {
  if (state_ == State::kClosed) return;
  if (!writer_.Write(std::move(bytes))) Close();
}

void HttpConnection::OnWritten(int status) {
  if (state_ == State::kClosed) return;
  if (status < 0) return Close();
  if (state_ == State::kDraining && writer_.in_flight() == 0) Linger();
  times_.last_written = server_.loop().Now();
  if (state_ != State::kReading || reading_ || consuming_) return;
  // A pipelining client that stopped taking its answers: still stalled, its idle time counts
  // from this write; once it has taken enough, parse what waits and read on. The stall was
  // ours, so a request cut in two by it gets its requestTimeout again.
  if (WriteQueueFull()) return ArmTimer();
  if (reader_.state() == HttpRequestReader::State::kPartial) {
    times_.request_started = times_.last_written;
  }
  Consume();
}

void HttpConnection::ReceiveTls(std::string_view ciphertext) {
  TlsChannel::Received received = tls_->Receive(ciphertext);
  WriteRaw(std::move(received.outgoing));  // handshake records, session tickets, alerts
  if (state_ == State::kClosed) return;
  if (received.failure) {
    server_.metrics().CountTlsFailure(received.failure->reason);
    LogAt(server_.logger(), transport::LogLevel::kDebug,
          "HTTPS connection from " + peer_.ToString() + " cut off: " + received.failure->why);
    WriteRaw(std::move(received.failure->answer));  // the 400 for a plain HTTP client
    return CloseAfterWrites();
  }
  if (received.handshake_completed) {
    server_.metrics().CountTlsHandshake(tls_->version());
    times_.last_activity = server_.loop().Now();
    ArmTimer();  // from the handshake deadline to the idle one
  }
  if (received.peer_closed) {  // close_notify: as the end of the stream
    SetReading(false);
    if (writer_.in_flight() > 0 && state_ != State::kStreaming) return CloseAfterWrites();
    return Close();
  }
  if (!received.plaintext.empty()) ReceivePlain(received.plaintext);
}

bool HttpConnection::WriteQueueFull() const {
  return writer_.queued_bytes() > server_.config().write_queue_bytes_max;
}

void HttpConnection::CloseAfterWrites() {
  if (state_ == State::kClosed) return;
  assert(state_ != State::kLingering && "a lingering close has written everything");
  if (tls_ != nullptr && state_ != State::kDraining) {
    WriteRaw(tls_->Shutdown());            // close_notify
    if (state_ == State::kClosed) return;  // the write failed
  }
  state_ = State::kDraining;
  SetReading(false);
  if (writer_.in_flight() == 0) return Linger();
  ArmTimer();
}

void HttpConnection::Linger() {
  assert(state_ == State::kDraining && writer_.in_flight() == 0 && "lingers once, when all is out");
  if (!server_.BeginLinger()) return Close();
  state_ = State::kLingering;
  if (!writer_.Shutdown()) return Close();
  SetReading(true);
  ArmTimer();
}

ConnectionPhase HttpConnection::Phase() const {
  return {state_, tls_ != nullptr && !tls_->handshake_done(), WriteQueueFull(),
          reader_.state() == HttpRequestReader::State::kPartial};
}

std::optional<transport::TimePoint> HttpConnection::waiting_since() const {
  return ConnectionDeadlines::WaitingSince(Phase(), times_);
}

void HttpConnection::Evict() {
  if (state_ == State::kClosed) return;
  server_.metrics().CountEvictedConnection();
  LogAt(server_.logger(), transport::LogLevel::kDebug,
        "HTTP connection from " + peer_.ToString() +
            " closed to make room: it waited longest for a request at the connection limit");
  Close();
}

void HttpConnection::ArmTimer() {
  if (state_ == State::kClosed) return;
  const transport::TimePoint now = server_.loop().Now();
  const ConnectionDeadlines::Deadline next = deadlines_.Next(Phase(), times_, now);
  timer_.Start(next.at - now, [this, kind = next.kind] { OnDeadline(kind); });
}

void HttpConnection::OnDeadline(ConnectionDeadlines::Kind kind) {
  assert(state_ != State::kClosed && "the timer closes with the connection");
  const ConnectionDeadlines::Expiry expiry = deadlines_.Expire(kind, peer_);
  if (!expiry.tls_failure.empty()) server_.metrics().CountTlsFailure(expiry.tls_failure);
  if (!expiry.timeout_metric.empty()) server_.metrics().CountTimeout(expiry.timeout_metric);
  if (!expiry.log.empty()) LogAt(server_.logger(), transport::LogLevel::kDebug, expiry.log);
  switch (expiry.action) {
    case ConnectionDeadlines::Action::kClose:
      return Close();
    case ConnectionDeadlines::Action::kSendKeepAlive:
      StreamWrite(": keep-alive\n\n");
      return ArmTimer();
    case ConnectionDeadlines::Action::kFailRequest:
      return FailRequest(expiry.status, expiry.code, expiry.message);
    case ConnectionDeadlines::Action::kAnswerForHandler:
      return AnswerForHandler(expiry.status, expiry.code, expiry.message);
  }
}

}  // namespace skillnode::node::http
