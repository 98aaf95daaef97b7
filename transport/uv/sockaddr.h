// Conversions between Endpoint and the BSD socket address structures libuv takes and gives.
#ifndef SKILLNODE_TRANSPORT_UV_SOCKADDR_H_
#define SKILLNODE_TRANSPORT_UV_SOCKADDR_H_

#include <sys/socket.h>

#include <optional>

#include "transport/endpoint.h"

namespace skillnode::transport::uv {

// An IPv4 endpoint becomes sockaddr_in, an IPv6 one sockaddr_in6.
sockaddr_storage ToSockaddr(const Endpoint& endpoint);
// nullopt for families other than AF_INET and AF_INET6. IPv4-mapped IPv6 folds to IPv4.
std::optional<Endpoint> FromSockaddr(const sockaddr* address);

}  // namespace skillnode::transport::uv

#endif  // SKILLNODE_TRANSPORT_UV_SOCKADDR_H_
