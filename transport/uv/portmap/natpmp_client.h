// The NAT-PMP client (RFC 6886, Debian's libnatpmp): asks the default gateway for the public
// address and a UDP mapping, or removes one. Blocking, within a budget (gateway_mapping.h).
#ifndef SKILLNODE_TRANSPORT_UV_PORTMAP_NATPMP_CLIENT_H_
#define SKILLNODE_TRANSPORT_UV_PORTMAP_NATPMP_CLIENT_H_

#include <cstdint>

#include "transport/clock.h"
#include "transport/result.h"
#include "transport/uv/portmap/gateway_mapping.h"

namespace skillnode::transport::uv::portmap {

// Maps UDP `internal_port` on the default gateway for `lifetime_s` seconds (also a renewal).
Result<GatewayMapping> MapWithNatPmp(uint16_t internal_port, uint32_t lifetime_s,
                                     const ExchangeBudget& budget);
// Removes the gateway's mapping of UDP `internal_port` (a request with lifetime 0).
Result<bool> UnmapWithNatPmp(uint16_t internal_port, const ExchangeBudget& budget);

}  // namespace skillnode::transport::uv::portmap

#endif  // SKILLNODE_TRANSPORT_UV_PORTMAP_NATPMP_CLIENT_H_
