// UvMulticast: the LAN adapter's sockets on the libuv loop (skill-discovery-protocol §5).
//
// One group socket, bound to 0.0.0.0:{port} with address reuse (several processes on a host
// share the port), joined to the multicast group on every chosen IPv4 interface; it hears the
// group and anything sent to the port. One send socket per interface, bound to that
// interface's address on a free port, with IP_MULTICAST_IF on it, TTL 1 and multicast loopback
// on (nodes on one host hear each other): group messages go out on every interface, and replies
// to what this node sent (ACKs, discovery responses) come back to the socket that sent it.
// Since each process has send sockets of its own, a receiver can tell processes on one host
// apart by the source port, and this node can tell its own datagrams from the group's.
//
// Sends use uv_udp_try_send only: a datagram the kernel cannot take at once is dropped and
// counted (LAN announcements repeat every broadcast interval). Received datagrams over
// `datagram_size_max` are dropped and counted.
//
// Non-copyable, non-movable; loop thread only. Close() before the loop is closed.
#ifndef SKILLNODE_TRANSPORT_UV_UV_MULTICAST_H_
#define SKILLNODE_TRANSPORT_UV_UV_MULTICAST_H_

#include <uv.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "transport/endpoint.h"
#include "transport/logger.h"
#include "transport/result.h"
#include "transport/uv/uv_handle.h"
#include "transport/uv/uv_loop.h"

namespace skillnode::transport::uv {

// Interfaces one node joins the group on at most (also the longest `interfaces` list).
constexpr size_t kMulticastInterfacesMax = 32;

struct MulticastInterface {
  std::string name;  // "eth0"
  Address address;   // its IPv4 address
  Address netmask;
};

// The host's IPv4 interfaces that are up and multicast-capable (IFF_UP | IFF_MULTICAST), or,
// when `wanted` is not empty, those it names (by interface name or address; the loopback
// interface may be named). The error names an entry that matches no interface.
[[nodiscard]] Result<std::vector<MulticastInterface>> FindMulticastInterfaces(
    const std::vector<std::string>& wanted);

// Every address of this host's interfaces (IPv4 and IPv6, loopback included).
std::vector<Address> LocalAddresses();

struct MulticastOptions {
  Address group = Address::V4({224, 0, 0, 1});
  uint16_t port = 54321;
  std::vector<MulticastInterface> interfaces;
  size_t datagram_size_max = 4096;
};

struct MulticastStats {
  uint64_t datagrams_received = 0;
  uint64_t dropped_oversize = 0;
  uint64_t receive_errors = 0;
  uint64_t sent = 0;
  uint64_t send_errors = 0;  // refused by the kernel, or it would have blocked
};

class UvMulticast {
 public:
  // `to_group` is true for what arrived on the group socket, false for a reply to a send socket.
  using Receiver =
      std::function<void(const Endpoint& from, std::span<const uint8_t> datagram, bool to_group)>;

  UvMulticast(UvLoop& loop, Logger& logger);
  UvMulticast(const UvMulticast&) = delete;
  UvMulticast& operator=(const UvMulticast&) = delete;
  ~UvMulticast();

  // Binds, joins and starts receiving. An interface whose join or send socket fails is logged
  // and left out; the error says why when the group socket itself cannot be opened.
  [[nodiscard]] Result<void> Open(const MulticastOptions& options, Receiver receiver);
  // Sends to the group on every interface.
  void SendToGroup(std::span<const uint8_t> datagram);
  // Sends to one address, from the send socket of the interface on its subnet (else the first).
  void SendTo(const Endpoint& to, std::span<const uint8_t> datagram);
  void Close();

  // The send sockets' addresses: what this node's datagrams come from.
  std::vector<Endpoint> send_endpoints() const;
  // Interfaces the group was joined on.
  std::vector<std::string> joined() const;
  uint16_t port() const { return options_.port; }
  const MulticastStats& stats() const { return stats_; }

 private:
  struct Socket {
    UvMulticast* owner = nullptr;
    UvHandle<uv_udp_t> handle;
    MulticastInterface interface;
    Endpoint bound;
    bool group = false;
  };

  [[nodiscard]] Result<std::unique_ptr<Socket>> OpenSocket(const Endpoint& at, bool reuse);
  [[nodiscard]] Result<void> AddInterface(const MulticastInterface& interface);
  void Send(Socket& socket, const Endpoint& to, std::span<const uint8_t> datagram);
  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnReceive(uv_udp_t* handle, ssize_t nread, const uv_buf_t* buf, const sockaddr* from,
                        unsigned flags);

  UvLoop& loop_;
  Logger& logger_;
  MulticastOptions options_;
  Receiver receiver_;
  std::unique_ptr<Socket> group_;
  std::vector<std::unique_ptr<Socket>> senders_;
  std::vector<std::string> joined_;
  std::vector<char> receive_buffer_;
  MulticastStats stats_;
};

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_UV_MULTICAST_H_
