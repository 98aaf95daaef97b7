// Addressing: every simulated host lives at a fixed private address derived from its slot.
//
// Slot s (0-based) is 10.a.b.c:6881 with a.b.c = s + 1, so the simulator maps an address back
// to its slot with arithmetic instead of a hash map, and up to kSlotsMax hosts fit. Private
// addresses are exempt from the routing table's diversity limit (kademlia/config.h), as they
// are for many nodes on one LAN; the simulator models distance with its latency model instead.
#ifndef SKILLNODE_SIM_NETWORK_ADDRESSING_H_
#define SKILLNODE_SIM_NETWORK_ADDRESSING_H_

#include <cstdint>
#include <optional>

#include "transport/endpoint.h"

namespace skillnode::sim::network {

// 10.0.0.1 .. 10.255.255.254: 2^24 - 2 hosts.
constexpr uint32_t kSlotsMax = (1u << 24) - 2;
constexpr uint16_t kSimPort = 6881;

inline transport::Endpoint EndpointOfSlot(uint32_t slot) {
  const uint32_t n = slot + 1;
  return transport::Endpoint(
      transport::Address::V4({10, static_cast<uint8_t>(n >> 16), static_cast<uint8_t>(n >> 8),
                              static_cast<uint8_t>(n)}),
      kSimPort);
}

// The slot at `endpoint`, or nullopt for an address no simulated host has.
inline std::optional<uint32_t> SlotOfEndpoint(const transport::Endpoint& endpoint) {
  const transport::Address& address = endpoint.address();
  if (!address.is_v4() || endpoint.port() != kSimPort) return std::nullopt;
  const auto bytes = address.bytes();
  if (bytes[0] != 10) return std::nullopt;
  const uint32_t n = (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) | bytes[3];
  if (n == 0 || n > kSlotsMax) return std::nullopt;
  return n - 1;
}

}  // namespace skillnode::sim::network

#endif  // SKILLNODE_SIM_NETWORK_ADDRESSING_H_
