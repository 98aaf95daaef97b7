#include "transport/uv/udp_transport.h"

#include <sys/socket.h>

#include <cassert>
#include <cstring>
#include <string>
#include <utility>

#include "transport/uv/sockaddr.h"

namespace skillnode::transport::uv {
namespace {

// libuv hands recvmmsg one slot of this size per datagram (UV__UDP_DGRAM_MAXSIZE).
constexpr size_t kLibuvSlotBytes = 64 * 1024;
constexpr size_t kReceiveBufferBytes = kUdpReceiveBatchMax * kLibuvSlotBytes;

std::string UvError(int rc) { return std::string(uv_err_name(rc)) + " (" + uv_strerror(rc) + ")"; }

}  // namespace

struct UdpTransport::SendRequest {
  uv_udp_send_t request{};
  std::vector<uint8_t> bytes;
};

UdpTransport::UdpTransport(UvLoop& loop, Logger& logger) : loop_(loop), logger_(logger) {}

UdpTransport::~UdpTransport() { Close(); }

Result<std::unique_ptr<UdpTransport::Socket>> UdpTransport::Bind(const Endpoint& at) {
  auto socket = std::make_unique<Socket>();
  const int family = at.address().is_v4() ? AF_INET : AF_INET6;
  int rc = uv_udp_init_ex(loop_.get(), socket->handle.get(), family | UV_UDP_RECVMMSG);
  if (rc != 0) {
    return Fail(ErrorCode::kIo,
                "cannot open a UDP socket for " + at.ToString() + ": " + UvError(rc));
  }
  socket->handle.Initialized(this);
  const sockaddr_storage address = ToSockaddr(at);
  const unsigned flags = at.address().is_v4() ? 0u : static_cast<unsigned>(UV_UDP_IPV6ONLY);
  rc = uv_udp_bind(socket->handle.get(), reinterpret_cast<const sockaddr*>(&address), flags);
  if (rc != 0) {
    return Fail(ErrorCode::kIo, "cannot bind UDP " + at.ToString() + ": " + UvError(rc));
  }
  sockaddr_storage bound{};
  int length = sizeof(bound);
  rc = uv_udp_getsockname(socket->handle.get(), reinterpret_cast<sockaddr*>(&bound), &length);
  auto endpoint = rc == 0 ? FromSockaddr(reinterpret_cast<sockaddr*>(&bound)) : std::nullopt;
  if (!endpoint) return Fail(ErrorCode::kIo, "cannot read the address of UDP " + at.ToString());
  socket->bound = *endpoint;
  int buffer_bytes = kUdpSocketBufferBytes;
  uv_recv_buffer_size(socket->handle.base(), &buffer_bytes);  // best effort: the kernel caps it
  buffer_bytes = kUdpSocketBufferBytes;
  uv_send_buffer_size(socket->handle.base(), &buffer_bytes);
  rc = uv_udp_recv_start(socket->handle.get(), &UdpTransport::OnAlloc, &UdpTransport::OnReceive);
  if (rc != 0) {
    return Fail(ErrorCode::kIo, "cannot receive on UDP " + at.ToString() + ": " + UvError(rc));
  }
  return socket;
}

Result<void> UdpTransport::Open(const UdpOptions& options, Receiver receiver) {
  assert(v4_ == nullptr && v6_ == nullptr && "UdpTransport opened twice");
  options_ = options;
  receiver_ = std::move(receiver);
  receive_buffer_.reset(new char[kReceiveBufferBytes]);  // left uninitialised: not resident
  uint16_t port = options.port;
  if (options.bind_v4) {
    auto socket = Bind(Endpoint(*options.bind_v4, port));
    if (!socket) return tl::unexpected(socket.error());
    v4_ = std::move(*socket);
    port = v4_->bound.port();
  }
  if (options.bind_v6) {
    auto socket = Bind(Endpoint(*options.bind_v6, port));
    if (socket) {
      v6_ = std::move(*socket);
    } else if (options.ipv6_optional && v4_ != nullptr) {
      if (logger_.Enabled(LogLevel::kWarn)) {
        logger_.Log(LogLevel::kWarn,
                    "IPv6 unavailable, DHT runs on IPv4 only: " + socket.error().message);
      }
    } else {
      Close();
      return tl::unexpected(socket.error());
    }
  }
  if (v4_ == nullptr && v6_ == nullptr) {
    return Fail(ErrorCode::kInvalidArgument, "no UDP address to bind: IPv4 and IPv6 are off");
  }
  return {};
}

void UdpTransport::Close() {
  for (auto* socket : {&v4_, &v6_}) {
    if (*socket == nullptr) continue;
    if ((*socket)->handle.open()) uv_udp_recv_stop((*socket)->handle.get());
    (*socket)->handle.Close();
    socket->reset();
  }
  receiver_ = nullptr;
}

void UdpTransport::Send(const Endpoint& to, std::span<const uint8_t> datagram) {
  Socket* socket = to.address().is_v4() ? v4_.get() : v6_.get();
  if (socket == nullptr) {
    ++stats_.send_no_socket;
    return;
  }
  const sockaddr_storage address = ToSockaddr(to);
  uv_buf_t buf = uv_buf_init(const_cast<char*>(reinterpret_cast<const char*>(datagram.data())),
                             static_cast<unsigned>(datagram.size()));
  const int rc =
      uv_udp_try_send(socket->handle.get(), &buf, 1, reinterpret_cast<const sockaddr*>(&address));
  if (rc >= 0) {
    ++stats_.sent_immediately;
    return;
  }
  if (rc == UV_EAGAIN || rc == UV_ENOSYS) return Queue(*socket, to, datagram);
  ++stats_.send_errors;
  if (logger_.Enabled(LogLevel::kDebug)) {
    logger_.Log(LogLevel::kDebug, "cannot send to " + to.ToString() + ": " + UvError(rc));
  }
}

void UdpTransport::Queue(Socket& socket, const Endpoint& to, std::span<const uint8_t> datagram) {
  if (stats_.send_queued_now >= options_.send_queue_max) {
    ++stats_.send_queue_full;
    return;
  }
  auto request = std::make_unique<SendRequest>();
  request->bytes.assign(datagram.begin(), datagram.end());
  request->request.data = request.get();
  const sockaddr_storage address = ToSockaddr(to);
  uv_buf_t buf = uv_buf_init(reinterpret_cast<char*>(request->bytes.data()),
                             static_cast<unsigned>(request->bytes.size()));
  const int rc = uv_udp_send(&request->request, socket.handle.get(), &buf, 1,
                             reinterpret_cast<const sockaddr*>(&address), &UdpTransport::OnSent);
  if (rc != 0) {
    ++stats_.send_errors;
    if (logger_.Enabled(LogLevel::kDebug)) {
      logger_.Log(LogLevel::kDebug,
                  "cannot queue a datagram to " + to.ToString() + ": " + UvError(rc));
    }
    return;
  }
  request.release();  // owned by libuv until OnSent
  ++stats_.sent_queued;
  ++stats_.send_queued_now;
}

void UdpTransport::OnSent(uv_udp_send_t* request, int status) {
  std::unique_ptr<SendRequest> owned(static_cast<SendRequest*>(request->data));
  auto* self = static_cast<UdpTransport*>(request->handle->data);
  if (self == nullptr) return;  // closed: the request is cancelled and freed, nothing else
  --self->stats_.send_queued_now;
  if (status < 0 && status != UV_ECANCELED) ++self->stats_.send_errors;
}

void UdpTransport::OnAlloc(uv_handle_t* handle, size_t /*suggested*/, uv_buf_t* buf) {
  auto* self = static_cast<UdpTransport*>(handle->data);
  if (self == nullptr || self->receive_buffer_ == nullptr) {
    *buf = uv_buf_init(nullptr, 0);
    return;
  }
  // The same buffer every time: each datagram is handled before libuv reads the next batch.
  *buf = uv_buf_init(self->receive_buffer_.get(), kReceiveBufferBytes);
}

void UdpTransport::OnReceive(uv_udp_t* handle, ssize_t nread, const uv_buf_t* buf,
                             const sockaddr* from, unsigned flags) {
  auto* self = static_cast<UdpTransport*>(handle->data);
  if (self == nullptr) return;
  if ((flags & UV_UDP_MMSG_FREE) != 0) {
    ++self->stats_.receive_batches;  // end of a batch; the buffer is ours and reused
    return;
  }
  if (nread < 0) {
    ++self->stats_.receive_errors;
    if (self->logger_.Enabled(LogLevel::kDebug)) {
      self->logger_.Log(LogLevel::kDebug, "UDP receive error: " + UvError(static_cast<int>(nread)));
    }
    return;
  }
  if (from == nullptr) return;  // nothing more to read for now
  if ((flags & UV_UDP_PARTIAL) != 0) {
    ++self->stats_.dropped_truncated;
    return;
  }
  if (static_cast<size_t>(nread) > self->options_.datagram_size_max) {
    ++self->stats_.dropped_oversize;
    return;
  }
  auto endpoint = FromSockaddr(from);
  if (!endpoint || !self->receiver_) return;
  ++self->stats_.datagrams_received;
  self->receiver_(*endpoint, std::span(reinterpret_cast<const uint8_t*>(buf->base),
                                       static_cast<size_t>(nread)));
}

std::vector<Endpoint> UdpTransport::local_endpoints() const {
  std::vector<Endpoint> out;
  if (v4_ != nullptr) out.push_back(v4_->bound);
  if (v6_ != nullptr) out.push_back(v6_->bound);
  return out;
}

uint16_t UdpTransport::port() const {
  if (v4_ != nullptr) return v4_->bound.port();
  return v6_ != nullptr ? v6_->bound.port() : 0;
}

bool UdpTransport::batched_receive() const {
  const Socket* socket = v4_ != nullptr ? v4_.get() : v6_.get();
  return socket != nullptr && uv_udp_using_recvmmsg(socket->handle.get()) != 0;
}

}  // namespace skillnode::transport::uv
