// Address, Endpoint and HostPort: where a peer is.
//
// Address is an IPv4 or IPv6 address as plain bytes (IPv4-mapped IPv6 is folded to IPv4), so
// it can be compared, hashed and masked without socket headers; kademlia/ uses it freely.
// Endpoint is an Address plus a UDP/TCP port. HostPort is what a user types: a literal address
// or a DNS name with a port; bootstrap/ resolves the name later.
#ifndef SKILLNODE_TRANSPORT_ENDPOINT_H_
#define SKILLNODE_TRANSPORT_ENDPOINT_H_

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "transport/result.h"

namespace skillnode::transport {

enum class AddressFamily : uint8_t { kIPv4 = 4, kIPv6 = 6 };

class Address {
 public:
  // 0.0.0.0
  Address() = default;

  static Address V4(std::array<uint8_t, 4> bytes);
  static Address V6(std::array<uint8_t, 16> bytes);  // folds ::ffff:a.b.c.d to IPv4
  static Address Loopback4();
  // A literal IPv4 ("1.2.3.4") or IPv6 ("::1", no brackets) address.
  [[nodiscard]] static Result<Address> Parse(std::string_view text);
  // From raw bytes as carried on the wire: 4 bytes for IPv4, 16 for IPv6.
  [[nodiscard]] static Result<Address> FromBytes(std::span<const uint8_t> bytes);

  AddressFamily family() const { return family_; }
  bool is_v4() const { return family_ == AddressFamily::kIPv4; }
  // 4 bytes for IPv4, 16 for IPv6.
  std::span<const uint8_t> bytes() const { return {bytes_.data(), is_v4() ? 4u : 16u}; }

  bool IsUnspecified() const;  // 0.0.0.0, ::
  bool IsLoopback() const;     // 127/8, ::1
  bool IsPrivate() const;      // 10/8, 172.16/12, 192.168/16, 100.64/10 (CGNAT), fc00::/7
  bool IsLinkLocal() const;    // 169.254/16, fe80::/10
  bool IsMulticast() const;    // 224/4, ff00::/8
  // Globally routable: none of the above.
  bool IsPublic() const;

  // The address with all but the first `bits` bits cleared (for /24 and /64 prefixes).
  Address Masked(int bits) const;

  std::string ToString() const;  // "1.2.3.4", "::1"

  auto operator<=>(const Address&) const = default;

 private:
  AddressFamily family_ = AddressFamily::kIPv4;
  std::array<uint8_t, 16> bytes_{};  // IPv4 uses the first 4
};

class Endpoint {
 public:
  Endpoint() = default;
  Endpoint(Address address, uint16_t port) : address_(address), port_(port) {}

  // "1.2.3.4:6881" or "[::1]:6881"; the port must be 1..65535. Names are refused: use
  // HostPort for text that may hold a DNS name.
  [[nodiscard]] static Result<Endpoint> Parse(std::string_view text);
  // As Parse, but port 0 (any free port) is accepted: for listen addresses.
  [[nodiscard]] static Result<Endpoint> ParseListen(std::string_view text);

  const Address& address() const { return address_; }
  uint16_t port() const { return port_; }

  std::string ToString() const;  // "1.2.3.4:6881", "[::1]:6881"

  auto operator<=>(const Endpoint&) const = default;

 private:
  Address address_;
  uint16_t port_ = 0;
};

// A host (DNS name or literal address) and a port, as found in configuration files.
struct HostPort {
  std::string host;  // name, IPv4 literal, or IPv6 literal without brackets
  uint16_t port = 0;

  // "host:port", "1.2.3.4:port" or "[v6]:port". Port 1..65535.
  [[nodiscard]] static Result<HostPort> Parse(std::string_view text);

  // The literal address, if host is one (no resolution happens here).
  std::optional<Endpoint> AsEndpoint() const;
  std::string ToString() const;

  auto operator<=>(const HostPort&) const = default;
};

}  // namespace skillnode::transport

template <>
struct std::hash<skillnode::transport::Address> {
  size_t operator()(const skillnode::transport::Address& a) const noexcept;
};
template <>
struct std::hash<skillnode::transport::Endpoint> {
  size_t operator()(const skillnode::transport::Endpoint& e) const noexcept;
};

#endif  // SKILLNODE_TRANSPORT_ENDPOINT_H_
