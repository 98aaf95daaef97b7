// UdpTransport: the libuv implementation of Transport, one UDP socket per address family.
//
// IPv4 and IPv6 each get their own socket (the IPv6 one with IPV6_V6ONLY), on the same port;
// a datagram goes out on the socket of its destination's family. Two sockets rather than one
// dual-stack socket so that either family can be bound to a chosen address, and IPv6 can be
// missing (disabled in a container) without losing IPv4.
//
// Sending tries uv_udp_try_send first; only when the socket would block is the datagram copied
// into a request that lives until libuv's send callback, and at most `send_queue_max` such
// requests wait at once (more are dropped and counted, as a full NIC queue would). Receiving
// uses recvmmsg batches (UV_UDP_RECVMMSG) into one buffer the transport owns; each datagram
// reaches the receiver as a span valid only during the call. Datagrams over
// `datagram_size_max` or truncated by the kernel are dropped and counted here.
//
// Non-copyable, non-movable; loop thread only. Close() before the loop is closed.
#ifndef SKILLNODE_TRANSPORT_UV_UDP_TRANSPORT_H_
#define SKILLNODE_TRANSPORT_UV_UDP_TRANSPORT_H_

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "transport/endpoint.h"
#include "transport/logger.h"
#include "transport/result.h"
#include "transport/transport.h"
#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::transport::uv {

// Datagrams copied into send requests at once when the sockets would block (about 1.3 MB of
// 1280-byte datagrams); beyond that the kernel is not keeping up and more would only queue.
constexpr size_t kUdpSendQueueMax = 1024;
// Datagrams one recvmmsg call may return. libuv gives each a 64 KiB slot of the receive
// buffer, so the buffer is this many slots (virtual memory; only touched pages are resident).
constexpr size_t kUdpReceiveBatchMax = 16;
// Socket buffers asked of the kernel (it caps them at net.core.[rw]mem_max): room for bursts
// of a few hundred datagrams while the loop is busy elsewhere.
constexpr int kUdpSocketBufferBytes = 1 << 20;

struct UdpOptions {
  std::optional<Address> bind_v4 = Address();        // 0.0.0.0; nullopt: no IPv4
  std::optional<Address> bind_v6 = Address::V6({});  // ::; nullopt: no IPv6
  uint16_t port = 0;  // 0: any free port (IPv6 then takes the port IPv4 got)
  // When true, an IPv6 socket that cannot be opened (IPv6 disabled) is a warning, not an
  // error, as long as the IPv4 one is open.
  bool ipv6_optional = true;
  size_t datagram_size_max = 1280;
  size_t send_queue_max = kUdpSendQueueMax;
};

struct UdpStats {
  uint64_t datagrams_received = 0;
  uint64_t receive_batches = 0;  // recvmmsg calls that returned datagrams
  uint64_t sent_immediately = 0;
  uint64_t sent_queued = 0;
  uint64_t dropped_oversize = 0;   // received, longer than datagram_size_max
  uint64_t dropped_truncated = 0;  // received, cut by the kernel
  uint64_t receive_errors = 0;
  uint64_t send_errors = 0;      // the kernel refused (unreachable, no route, ...)
  uint64_t send_queue_full = 0;  // dropped: send_queue_max requests already waiting
  uint64_t send_no_socket = 0;   // dropped: no socket of the destination's family
  size_t send_queued_now = 0;
};

class UdpTransport final : public Transport {
 public:
  using Receiver = std::function<void(const Endpoint& from, std::span<const uint8_t> datagram)>;

  UdpTransport(UvLoop& loop, Logger& logger);
  UdpTransport(const UdpTransport&) = delete;
  UdpTransport& operator=(const UdpTransport&) = delete;
  ~UdpTransport() override;

  // Binds the sockets and starts receiving. The error names the address that failed.
  [[nodiscard]] Result<void> Open(const UdpOptions& options, Receiver receiver);
  void Send(const Endpoint& to, std::span<const uint8_t> datagram) override;
  // Stops receiving and closes the sockets; queued sends are cancelled (their memory is
  // freed in their callbacks). Nothing is delivered after Close().
  void Close();

  // The bound addresses, IPv4 first (e.g. 0.0.0.0:6881 and [::]:6881).
  std::vector<Endpoint> local_endpoints() const;
  uint16_t port() const;
  bool has_ipv6() const { return v6_ != nullptr; }
  // Whether libuv receives in recvmmsg batches on the IPv4 (else IPv6) socket.
  bool batched_receive() const;
  const UdpStats& stats() const { return stats_; }

 private:
  struct Socket {
    UvHandle<uv_udp_t> handle;
    Endpoint bound;
  };
  struct SendRequest;

  [[nodiscard]] Result<std::unique_ptr<Socket>> Bind(const Endpoint& at);
  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnReceive(uv_udp_t* handle, ssize_t nread, const uv_buf_t* buf, const sockaddr* from,
                        unsigned flags);
  static void OnSent(uv_udp_send_t* request, int status);
  void Queue(Socket& socket, const Endpoint& to, std::span<const uint8_t> datagram);

  UvLoop& loop_;
  Logger& logger_;
  UdpOptions options_;
  Receiver receiver_;
  std::unique_ptr<Socket> v4_;
  std::unique_ptr<Socket> v6_;
  std::unique_ptr<char[]> receive_buffer_;
  UdpStats stats_;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UDP_TRANSPORT_H_
