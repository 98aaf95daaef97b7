// HttpConnection: one accepted TCP connection of the HTTP server.
//
// Reads requests with HttpRequestReader and hands them one at a time to the server's router;
// while a handler works (possibly asynchronously) the connection stops reading, so pipelined
// requests wait in the kernel and are answered in order; nor does it read further requests
// while more than write_queue_bytes_max of answers wait for the client to take them, so a
// client that pipelines and never reads costs bounded memory (it is idle while it takes none of
// its answers, and its request timeout stops meanwhile). Keep-alive per HTTP/1.1. Timeouts
// (ConnectionDeadlines, connection_deadlines.h): an idle connection closes after idle_timeout;
// a request that has not fully arrived within request_timeout of its first byte is answered
// 408 and closed (slowloris); a handler that has not answered within response_timeout is
// answered 504 for it. Malformed or oversized requests are answered with the JSON error and
// the connection closes. Every close after an answer is a lingering close: the answer is
// written, the sending side shut down (FIN), and what the client still sends is read and
// dropped until it closes too (at most the deadlines' linger_bytes_max and linger_timeout),
// since closing a socket with unread input resets the connection and a client can lose the
// answer (a 503, a 413) it had not read yet. Its state is one ConnectionState. What it sends
// goes through its ConnectionWriter (connection_writer.h), which owns the libuv writes and the
// FIN.
//
// Owned by HttpServer. The object holds its uv_tcp_t and lives until that handle's close
// callback, which asks the server to delete it (memory freed in the close callback; write
// callbacks, even cancelled ones, run before it). A handler may instead turn its answer into a
// Server-Sent Events stream (event_stream.h), which stays open until either side ends it; while
// it is open, whatever the client sends is ignored. Non-copyable, non-movable; loop thread only.
//
// At connections_max the server may close the connection that has waited longest for a request
// (waiting_since, Evict) to let a new one in (http_server.h).
//
// On the HTTPS listener the connection owns a TlsChannel (tls_channel.h): bytes read go
// through it (ReceiveTls), and every write is encrypted. A handshake must complete within the
// server's handshake timeout; a plain-text request is answered 400 in plain HTTP and closed; a bad
// handshake is closed (with OpenSSL's alert). Answers that close the connection end with
// close_notify.
#ifndef SKILLNODE_NODE_HTTP_HTTP_CONNECTION_H_
#define SKILLNODE_NODE_HTTP_HTTP_CONNECTION_H_

#include <uv.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "node/http/connection_deadlines.h"
#include "node/http/connection_writer.h"
#include "node/http/http_message.h"
#include "node/http/http_request_reader.h"
#include "node/http/responder.h"
#include "node/http/tls_channel.h"
#include "transport/clock.h"
#include "transport/uv/uv_timer.h"

namespace skillnode::node::http {

class HttpServer;

class HttpConnection {
 public:
  explicit HttpConnection(HttpServer& server);
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;
  ~HttpConnection();

  // Accepts from `listener`. On failure the connection closes itself and returns false.
  bool Accept(uv_stream_t* listener);
  // Starts reading and the idle timer.
  void Start();
  // Sends `response` and closes (used when over the connection limit).
  void Reject(const HttpResponse& response);
  // Closes at once; queued writes are cancelled. Idempotent.
  void Close();

  const transport::Endpoint& peer() const { return peer_; }
  // Since when it has waited for a request: the last activity when idle, the first byte of a
  // request still arriving, the accept while a TLS handshake is due. Nullopt while a request is
  // handled, an answer goes out or an event stream is open: those are never evicted.
  std::optional<transport::TimePoint> waiting_since() const;
  // Closes a waiting connection to make room for a newer one at connections_max.
  void Evict();

 private:
  using State = ConnectionState;

  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void OnClosed(uv_handle_t* handle);
  void OnWritten(int status);

  // Parses plaintext read (from the socket, or out of the TlsChannel).
  void ReceivePlain(std::string_view bytes);
  void Consume();
  void Dispatch(HttpRequest request);
  std::shared_ptr<StreamSlot> StartStream();
  void StreamWrite(std::string bytes);
  void Deliver(HttpResponse response);
  void FailRequest(int status, std::string_view code, const std::string& message);
  // Answers `status` for a handler that has not answered (a response timeout), and closes.
  void AnswerForHandler(int status, std::string_view code, const std::string& message);
  void Write(std::string bytes);
  void WriteRaw(std::string bytes);
  // Hands bytes read to the TlsChannel and does what it reports.
  void ReceiveTls(std::string_view ciphertext);
  void CloseAfterWrites();
  // Answers queued and not yet taken by the client: past write_queue_bytes_max no further
  // request is read (pipelining cannot queue answers without bound).
  bool WriteQueueFull() const;
  // What the deadlines depend on now.
  ConnectionPhase Phase() const;
  void Linger();
  void SetReading(bool reading);
  void ArmTimer();
  void OnDeadline(ConnectionDeadlines::Kind kind);

  HttpServer& server_;
  uv_tcp_t tcp_{};
  ConnectionWriter writer_;
  size_t lingered_bytes_ = 0;
  bool tcp_initialized_ = false;
  ConnectionDeadlines deadlines_;
  transport::uv::UvTimer timer_;
  HttpRequestReader reader_;
  std::string pending_;  // bytes read but not parsed yet
  State state_ = State::kReading;
  bool reading_ = false;
  bool consuming_ = false;
  transport::Endpoint peer_;
  std::unique_ptr<TlsChannel> tls_;  // HTTPS only

  // The request being handled, and the handler's answer slot (weak: the handler owns it).
  HttpRequest current_;
  std::weak_ptr<ResponseSlot> slot_;
  // The open event stream (kStreaming), shared with the handler's EventStream.
  std::shared_ptr<StreamSlot> stream_;
  ConnectionTimes times_;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_HTTP_CONNECTION_H_
