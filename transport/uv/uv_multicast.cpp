#include "transport/uv/uv_multicast.h"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <cassert>
#include <utility>

#include "transport/uv/sockaddr.h"

namespace skillnode::transport::uv {
namespace {

std::string UvError(int rc) { return std::string(uv_err_name(rc)) + " (" + uv_strerror(rc) + ")"; }

std::optional<Address> AddressOf(const sockaddr* address) {
  if (address == nullptr) return std::nullopt;
  auto endpoint = FromSockaddr(address);
  if (!endpoint) return std::nullopt;
  return endpoint->address();
}

bool SameSubnet(const MulticastInterface& interface, const Address& to) {
  if (!to.is_v4()) return false;
  const auto a = interface.address.bytes();
  const auto m = interface.netmask.bytes();
  const auto b = to.bytes();
  for (size_t i = 0; i < 4; ++i) {
    if ((a[i] & m[i]) != (b[i] & m[i])) return false;
  }
  return true;
}

}  // namespace

Result<std::vector<MulticastInterface>> FindMulticastInterfaces(
    const std::vector<std::string>& wanted) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return Fail(ErrorCode::kIo, "cannot list the network interfaces");
  std::vector<MulticastInterface> all;
  std::vector<bool> multicast;
  for (ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
    if (it->ifa_addr == nullptr || it->ifa_addr->sa_family != AF_INET) continue;
    auto address = AddressOf(it->ifa_addr);
    auto netmask = AddressOf(it->ifa_netmask);
    if (!address) continue;
    all.push_back(MulticastInterface{it->ifa_name, *address,
                                     netmask ? *netmask : Address::V4({255, 255, 255, 255})});
    multicast.push_back((it->ifa_flags & IFF_UP) != 0 && (it->ifa_flags & IFF_MULTICAST) != 0 &&
                        (it->ifa_flags & IFF_LOOPBACK) == 0);
  }
  freeifaddrs(list);
  std::vector<MulticastInterface> out;
  if (wanted.empty()) {
    for (size_t i = 0; i < all.size() && out.size() < kMulticastInterfacesMax; ++i) {
      if (multicast[i]) out.push_back(all[i]);
    }
    return out;
  }
  for (const std::string& name : wanted) {
    bool found = false;
    for (const MulticastInterface& interface : all) {
      if (interface.name != name && interface.address.ToString() != name) continue;
      found = true;
      const bool seen = std::any_of(out.begin(), out.end(), [&](const MulticastInterface& o) {
        return o.address == interface.address;
      });
      if (!seen) out.push_back(interface);
    }
    if (!found) {
      return Fail(ErrorCode::kNotFound, "no IPv4 interface named or addressed '" + name + "'");
    }
  }
  return out;
}

std::vector<Address> LocalAddresses() {
  std::vector<Address> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* it = list; it != nullptr; it = it->ifa_next) {
    if (auto address = AddressOf(it->ifa_addr)) out.push_back(*address);
  }
  freeifaddrs(list);
  return out;
}

UvMulticast::UvMulticast(UvLoop& loop, Logger& logger) : loop_(loop), logger_(logger) {}

UvMulticast::~UvMulticast() { Close(); }

Result<std::unique_ptr<UvMulticast::Socket>> UvMulticast::OpenSocket(const Endpoint& at,
                                                                     bool reuse) {
  auto socket = std::make_unique<Socket>();
  socket->owner = this;
  int rc = uv_udp_init_ex(loop_.get(), socket->handle.get(), AF_INET);
  if (rc != 0) return Fail(ErrorCode::kIo, "cannot open a UDP socket: " + UvError(rc));
  socket->handle.Initialized(socket.get());
  const sockaddr_storage address = ToSockaddr(at);
  rc = uv_udp_bind(socket->handle.get(), reinterpret_cast<const sockaddr*>(&address),
                   reuse ? UV_UDP_REUSEADDR : 0);
  if (rc != 0) return Fail(ErrorCode::kIo, "cannot bind UDP " + at.ToString() + ": " + UvError(rc));
  sockaddr_storage bound{};
  int length = sizeof(bound);
  rc = uv_udp_getsockname(socket->handle.get(), reinterpret_cast<sockaddr*>(&bound), &length);
  auto endpoint = rc == 0 ? FromSockaddr(reinterpret_cast<sockaddr*>(&bound)) : std::nullopt;
  if (!endpoint) return Fail(ErrorCode::kIo, "cannot read the address of UDP " + at.ToString());
  socket->bound = *endpoint;
  rc = uv_udp_recv_start(socket->handle.get(), &UvMulticast::OnAlloc, &UvMulticast::OnReceive);
  if (rc != 0) {
    return Fail(ErrorCode::kIo, "cannot receive on UDP " + at.ToString() + ": " + UvError(rc));
  }
  return socket;
}

Result<void> UvMulticast::Open(const MulticastOptions& options, Receiver receiver) {
  assert(group_ == nullptr && "UvMulticast opened twice");
  options_ = options;
  receiver_ = std::move(receiver);
  receive_buffer_.resize(options.datagram_size_max + 1);  // one more: to see an oversize one
  auto group = OpenSocket(Endpoint(Address(), options.port), /*reuse=*/true);
  if (!group) return tl::unexpected(group.error());
  group_ = std::move(*group);
  group_->group = true;
  for (const MulticastInterface& interface : options.interfaces) {
    auto added = AddInterface(interface);
    if (!added && logger_.Enabled(LogLevel::kWarn)) {
      logger_.Log(LogLevel::kWarn, "LAN: interface " + interface.name + " (" +
                                       interface.address.ToString() +
                                       ") left out: " + added.error().message);
    }
  }
  return {};
}

Result<void> UvMulticast::AddInterface(const MulticastInterface& interface) {
  const std::string group = options_.group.ToString();
  const std::string at = interface.address.ToString();
  int rc = uv_udp_set_membership(group_->handle.get(), group.c_str(), at.c_str(), UV_JOIN_GROUP);
  if (rc != 0) return Fail(ErrorCode::kIo, "cannot join " + group + ": " + UvError(rc));
  auto sender = OpenSocket(Endpoint(interface.address, 0), /*reuse=*/false);
  if (!sender) return tl::unexpected(sender.error());
  Socket& socket = **sender;
  socket.interface = interface;
  rc = uv_udp_set_multicast_interface(socket.handle.get(), at.c_str());
  if (rc == 0) rc = uv_udp_set_multicast_ttl(socket.handle.get(), 1);
  if (rc == 0) rc = uv_udp_set_multicast_loop(socket.handle.get(), 1);
  if (rc != 0) return Fail(ErrorCode::kIo, "cannot set the multicast options: " + UvError(rc));
  senders_.push_back(std::move(*sender));
  joined_.push_back(interface.name);
  return {};
}

void UvMulticast::Close() {
  auto close = [](std::unique_ptr<Socket>& socket) {
    if (socket == nullptr) return;
    if (socket->handle.open()) uv_udp_recv_stop(socket->handle.get());
    socket->handle.Close();
    socket.reset();
  };
  close(group_);
  for (auto& sender : senders_) close(sender);
  senders_.clear();
  receiver_ = nullptr;
}

void UvMulticast::Send(Socket& socket, const Endpoint& to, std::span<const uint8_t> datagram) {
  const sockaddr_storage address = ToSockaddr(to);
  uv_buf_t buf = uv_buf_init(const_cast<char*>(reinterpret_cast<const char*>(datagram.data())),
                             static_cast<unsigned>(datagram.size()));
  const int rc =
      uv_udp_try_send(socket.handle.get(), &buf, 1, reinterpret_cast<const sockaddr*>(&address));
  if (rc >= 0) {
    ++stats_.sent;
  } else {
    ++stats_.send_errors;
  }
}

void UvMulticast::SendToGroup(std::span<const uint8_t> datagram) {
  const Endpoint to(options_.group, options_.port);
  for (auto& sender : senders_) Send(*sender, to, datagram);
}

void UvMulticast::SendTo(const Endpoint& to, std::span<const uint8_t> datagram) {
  if (senders_.empty() || !to.address().is_v4()) {
    ++stats_.send_errors;
    return;
  }
  Socket* chosen = senders_.front().get();
  for (auto& sender : senders_) {
    if (SameSubnet(sender->interface, to.address())) {
      chosen = sender.get();
      break;
    }
  }
  Send(*chosen, to, datagram);
}

std::vector<Endpoint> UvMulticast::send_endpoints() const {
  std::vector<Endpoint> out;
  for (const auto& sender : senders_) out.push_back(sender->bound);
  return out;
}

std::vector<std::string> UvMulticast::joined() const { return joined_; }

void UvMulticast::OnAlloc(uv_handle_t* handle, size_t /*suggested*/, uv_buf_t* buf) {
  auto* socket = static_cast<Socket*>(handle->data);
  if (socket == nullptr) {
    *buf = uv_buf_init(nullptr, 0);
    return;
  }
  auto& buffer = socket->owner->receive_buffer_;
  *buf = uv_buf_init(buffer.data(), static_cast<unsigned>(buffer.size()));
}

void UvMulticast::OnReceive(uv_udp_t* handle, ssize_t nread, const uv_buf_t* buf,
                            const sockaddr* from, unsigned flags) {
  auto* socket = static_cast<Socket*>(handle->data);
  if (socket == nullptr || nread == 0 || from == nullptr) return;
  UvMulticast& self = *socket->owner;
  if (nread < 0) {
    ++self.stats_.receive_errors;
    return;
  }
  if ((flags & UV_UDP_PARTIAL) != 0 ||
      static_cast<size_t>(nread) > self.options_.datagram_size_max) {
    ++self.stats_.dropped_oversize;
    return;
  }
  auto endpoint = FromSockaddr(from);
  if (!endpoint || !self.receiver_) return;
  ++self.stats_.datagrams_received;
  self.receiver_(*endpoint,
                 std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(buf->base),
                                          static_cast<size_t>(nread)),
                 socket->group);
}

}  // namespace skillnode::transport::uv
