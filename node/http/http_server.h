// HttpServer: the node's HTTP/1.1 API server, on the daemon's libuv loop.
//
// Listens on one TCP address, accepts connections up to connections_max and hands each request
// to the Router. Every limit comes from HttpConfig. One connection more takes the place of the
// one that has waited longest for a request (idle, or a request still arriving) if that has
// waited evict_after, else it is answered 503 and closed: idle or slowloris clients holding
// every connection keep others out for evict_after at most.
// With a TlsContext (UseTls) it is the HTTPS listener: every connection runs TLS on the loop
// (tls_session.h), a handshake must complete within its timeout, and SetTlsContext() swaps
// the certificate for new connections while open ones keep theirs.
// StopAccepting() closes the listener (shutdown begins; answers then carry Connection: close);
// Close() also closes every connection. Both must be followed by running the loop, which
// frees the connections in their close callbacks. Non-copyable, non-movable; loop thread only.
#ifndef SKILLNODE_NODE_HTTP_HTTP_SERVER_H_
#define SKILLNODE_NODE_HTTP_HTTP_SERVER_H_

#include <uv.h>

#include <memory>
#include <unordered_map>

#include "node/config/config.h"
#include "node/http/http_connection.h"
#include "node/http/http_metrics.h"
#include "node/http/router.h"
#include "node/http/tls_context.h"
#include "transport/logger.h"
#include "transport/result.h"
#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::node::http {

// Bytes read from a socket at once; shared by all connections (each read is consumed
// before the next).
constexpr size_t kHttpReadBufferBytes = 64 * 1024;
// Pending connections the kernel queues for accept().
constexpr int kHttpListenBacklog = 128;

class HttpServer {
 public:
  HttpServer(transport::uv::UvLoop& loop, const config::HttpConfig& config, const Router& router,
             HttpMetrics& metrics, transport::Logger& logger);
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();

  // Makes this the HTTPS listener; call before Listen().
  void UseTls(std::shared_ptr<const TlsContext> context, transport::Duration handshake_timeout);
  // The certificate for connections accepted from now on (a reload).
  void SetTlsContext(std::shared_ptr<const TlsContext> context) { tls_ = std::move(context); }
  const std::shared_ptr<const TlsContext>& tls() const { return tls_; }
  transport::Duration handshake_timeout() const { return handshake_timeout_; }
  // "http://127.0.0.1:7070" or "https://...": the bound address with its scheme.
  std::string url() const;

  // Binds and listens on config.listen; the error names the address.
  [[nodiscard]] transport::Result<void> Listen();
  // The bound address (the real port when config.listen had port 0).
  const transport::Endpoint& local_endpoint() const { return local_; }
  void StopAccepting();
  void Close();
  // Open connections, not counting those in a lingering close (answered, waiting for the
  // client to close; http_connection.h) or closed and waiting for their handle's close
  // callback, which the connection limit does not count either: a connection that closes in
  // the same loop iteration as another is accepted does not take its place.
  size_t connections() const { return connections_.size() - lingering_ - closing_; }
  // Connections answered and on their way out: lingering, or closed and not yet forgotten.
  size_t closing() const { return lingering_ + closing_; }
  // A connection begins or ends its lingering close. BeginLinger() says no when
  // connections_max connections linger already: that one closes at once instead.
  bool BeginLinger();
  void EndLinger() { --lingering_; }
  // A connection's handle begins or ends closing (uv_close to its close callback).
  void BeginClose() { ++closing_; }
  void EndClose() { --closing_; }
  bool stopping() const { return stopping_; }

  // For HttpConnection.
  transport::uv::UvLoop& loop() { return loop_; }
  const config::HttpConfig& config() const { return config_; }
  HttpMetrics& metrics() { return metrics_; }
  transport::Logger& logger() { return logger_; }
  void Route(HttpRequest& request, Responder responder) const;
  // The route's own body bound for a request (Router::BodyBytesMaxFor), 0 for none.
  size_t BodyBytesMaxFor(std::string_view method, std::string_view path) const {
    return router_.BodyBytesMaxFor(method, path);
  }
  char* read_buffer() { return read_buffer_.get(); }
  // Deletes a connection whose handle has closed.
  void Forget(HttpConnection* connection);

 private:
  static void OnConnection(uv_stream_t* listener, int status);
  // At connections_max: closes the connection that has waited longest for a request, if it
  // has waited at least config.evict_after (never `newcomer`); false when none has.
  bool EvictOneWaiting(const HttpConnection* newcomer);

  transport::uv::UvLoop& loop_;
  config::HttpConfig config_;
  const Router& router_;
  HttpMetrics& metrics_;
  transport::Logger& logger_;
  std::shared_ptr<const TlsContext> tls_;
  transport::Duration handshake_timeout_ = transport::Seconds(10);
  transport::uv::UvHandle<uv_tcp_t> listener_;
  transport::Endpoint local_;
  bool stopping_ = false;
  size_t lingering_ = 0;
  size_t closing_ = 0;
  std::unique_ptr<char[]> read_buffer_;
  std::unordered_map<HttpConnection*, std::unique_ptr<HttpConnection>> connections_;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_HTTP_SERVER_H_
