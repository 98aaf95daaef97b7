// The UPnP IGD client (Debian's libminiupnpc): discovers an Internet gateway device by SSDP and
// adds, renews or deletes a UDP port mapping on it over SOAP. Blocking, within a budget
// (gateway_mapping.h).
#ifndef SKILLNODE_TRANSPORT_UV_PORTMAP_UPNP_CLIENT_H_
#define SKILLNODE_TRANSPORT_UV_PORTMAP_UPNP_CLIENT_H_

#include <cstdint>

#include "transport/clock.h"
#include "transport/result.h"
#include "transport/uv/portmap/gateway_mapping.h"

namespace skillnode::transport::uv::portmap {

// Discovers a gateway and maps UDP `internal_port` on it for `lifetime_s` seconds (a gateway
// that takes only permanent leases: until removed, lifetime_s 0 in the answer).
// Search answers are awaited this long (libminiupnpc waits at least 1 s).
constexpr Duration kUpnpDiscoveryWait = Millis(1000);

Result<GatewayMapping> MapWithUpnp(uint16_t internal_port, uint32_t lifetime_s,
                                   const ExchangeBudget& budget);
// Adds `mapping` again at its control URL (no discovery): a renewal.
Result<GatewayMapping> RenewWithUpnp(const GatewayMapping& mapping, const ExchangeBudget& budget);
// Deletes `mapping` at its control URL.
Result<bool> UnmapWithUpnp(const GatewayMapping& mapping, const ExchangeBudget& budget);

}  // namespace skillnode::transport::uv::portmap

#endif  // SKILLNODE_TRANSPORT_UV_PORTMAP_UPNP_CLIENT_H_
