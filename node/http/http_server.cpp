#include "node/http/http_server.h"

#include <cassert>
#include <string>
#include <vector>

#include "node/spd_logger.h"
#include "transport/uv/sockaddr.h"

namespace skillnode::node::http {
namespace {

std::string UvError(int rc) { return std::string(uv_err_name(rc)) + " (" + uv_strerror(rc) + ")"; }

}  // namespace

HttpServer::HttpServer(transport::uv::UvLoop& loop, const config::HttpConfig& config,
                       const Router& router, HttpMetrics& metrics, transport::Logger& logger)
    : loop_(loop),
      config_(config),
      router_(router),
      metrics_(metrics),
      logger_(logger),
      read_buffer_(new char[kHttpReadBufferBytes]) {}

HttpServer::~HttpServer() {
  // Connections are deleted in their close callbacks; the loop must have run them.
  assert(connections_.empty() && "HttpServer destroyed before its connections closed");
}

void HttpServer::UseTls(std::shared_ptr<const TlsContext> context,
                        transport::Duration handshake_timeout) {
  tls_ = std::move(context);
  handshake_timeout_ = handshake_timeout;
}

std::string HttpServer::url() const {
  return (tls_ != nullptr ? "https://" : "http://") + local_.ToString();
}

transport::Result<void> HttpServer::Listen() {
  const std::string where = config_.listen.ToString();
  int rc = uv_tcp_init(loop_.get(), listener_.get());
  if (rc != 0)
    return transport::Fail(transport::ErrorCode::kIo, "cannot open a TCP socket: " + UvError(rc));
  listener_.Initialized(this);
  const sockaddr_storage address = transport::uv::ToSockaddr(config_.listen);
  const unsigned flags =
      config_.listen.address().is_v4() ? 0u : static_cast<unsigned>(UV_TCP_IPV6ONLY);
  rc = uv_tcp_bind(listener_.get(), reinterpret_cast<const sockaddr*>(&address), flags);
  if (rc == 0) {
    rc = uv_listen(reinterpret_cast<uv_stream_t*>(listener_.get()), kHttpListenBacklog,
                   &HttpServer::OnConnection);
  }
  if (rc != 0)
    return transport::Fail(transport::ErrorCode::kIo,
                           "cannot listen on " + where + ": " + UvError(rc));
  sockaddr_storage bound{};
  int length = sizeof(bound);
  rc = uv_tcp_getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&bound), &length);
  auto endpoint =
      rc == 0 ? transport::uv::FromSockaddr(reinterpret_cast<sockaddr*>(&bound)) : std::nullopt;
  if (!endpoint)
    return transport::Fail(transport::ErrorCode::kIo, "cannot read the address of " + where);
  local_ = *endpoint;
  return {};
}

void HttpServer::OnConnection(uv_stream_t* listener, int status) {
  auto* self = static_cast<HttpServer*>(listener->data);
  if (self == nullptr) return;
  if (status < 0) {
    LogAt(self->logger_, transport::LogLevel::kWarn, "HTTP accept failed: " + UvError(status));
    return;
  }
  auto owned = std::make_unique<HttpConnection>(*self);
  HttpConnection* connection = owned.get();
  self->connections_.emplace(connection, std::move(owned));
  if (!connection->Accept(listener)) return;  // it closed itself
  // A connection evicted for this one counts until its close callback: not against it.
  if (self->connections() > self->config_.connections_max && !self->EvictOneWaiting(connection)) {
    self->metrics_.CountRejectedConnection();
    LogAt(self->logger_, transport::LogLevel::kDebug,
          "HTTP connection from " + connection->peer().ToString() +
              " refused: " + std::to_string(self->config_.connections_max) + " connections open");
    connection->Reject(HttpResponse::Error(503, "TOO_MANY_CONNECTIONS",
                                           "the server has " +
                                               std::to_string(self->config_.connections_max) +
                                               " connections open; try again later",
                                           {{"connections_max", self->config_.connections_max}}));
    return;
  }
  connection->Start();
}

bool HttpServer::EvictOneWaiting(const HttpConnection* newcomer) {
  const transport::TimePoint waited_since_max = loop_.Now() - config_.evict_after;
  HttpConnection* longest = nullptr;
  transport::TimePoint longest_since = transport::kTimeNever;
  for (const auto& [connection, owned] : connections_) {
    if (connection == newcomer) continue;
    const std::optional<transport::TimePoint> since = connection->waiting_since();
    if (since && *since <= waited_since_max && *since < longest_since) {
      longest = connection;
      longest_since = *since;
    }
  }
  if (longest == nullptr) return false;
  longest->Evict();
  return true;
}

void HttpServer::Route(HttpRequest& request, Responder responder) const {
  router_.Dispatch(request, std::move(responder));
}

void HttpServer::StopAccepting() {
  stopping_ = true;
  listener_.Close();
}

void HttpServer::Close() {
  StopAccepting();
  std::vector<HttpConnection*> open;
  open.reserve(connections_.size());
  for (const auto& [connection, owned] : connections_) open.push_back(connection);
  for (HttpConnection* connection : open) connection->Close();
}

bool HttpServer::BeginLinger() {
  if (lingering_ >= config_.connections_max) return false;
  ++lingering_;
  return true;
}

void HttpServer::Forget(HttpConnection* connection) { connections_.erase(connection); }

}  // namespace skillnode::node::http
