#include "transport/uv/sockaddr.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace skillnode::transport::uv {

sockaddr_storage ToSockaddr(const Endpoint& endpoint) {
  sockaddr_storage storage{};
  const auto bytes = endpoint.address().bytes();
  if (endpoint.address().is_v4()) {
    auto* in = reinterpret_cast<sockaddr_in*>(&storage);
    in->sin_family = AF_INET;
    in->sin_port = htons(endpoint.port());
    std::memcpy(&in->sin_addr, bytes.data(), 4);
  } else {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&storage);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(endpoint.port());
    std::memcpy(&in6->sin6_addr, bytes.data(), 16);
  }
  return storage;
}

std::optional<Endpoint> FromSockaddr(const sockaddr* address) {
  if (address == nullptr) return std::nullopt;
  if (address->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(address);
    std::array<uint8_t, 4> bytes{};
    std::memcpy(bytes.data(), &in->sin_addr, 4);
    return Endpoint(Address::V4(bytes), ntohs(in->sin_port));
  }
  if (address->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(address);
    std::array<uint8_t, 16> bytes{};
    std::memcpy(bytes.data(), &in6->sin6_addr, 16);
    return Endpoint(Address::V6(bytes), ntohs(in6->sin6_port));
  }
  return std::nullopt;
}

}  // namespace skillnode::transport::uv
