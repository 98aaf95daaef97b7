// GatewayMapping: a port mapping a home router (an Internet gateway) holds for this host, made by
// one of two blocking clients: NAT-PMP (natpmp_client.h, RFC 6886, Debian's libnatpmp) or UPnP
// IGD (upnp_client.h, Debian's libminiupnpc); Renew and Unmap go to the one that made it. The
// daemon's PortMapper (port_mapper.h) runs them on libuv's thread pool; they touch nothing but
// their own sockets and their arguments.
//
// Each call takes an ExchangeBudget: a deadline, and a flag PortMapper::Stop sets to cut the
// exchange short. NAT-PMP retries its request at 250 ms, 500 ms, 1 s ... (the RFC's schedule) only
// while the budget lasts, not the library's own 64 s, and looks at the flag every 100 ms; UPnP's
// discovery searches for one device type and waits kUpnpDiscoveryWait (1 s) for answers (a
// gateway on the LAN answers in milliseconds), and makes no SOAP call once the budget is spent;
// a SOAP call itself is bounded by the library (a few seconds). A mapping asks for the same
// external port as the internal one, so peers that learned the node's endpoint from its own address
// keep it; the gateway may give another
// (`external`).
#ifndef SKILLNODE_TRANSPORT_UV_PORTMAP_GATEWAY_MAPPING_H_
#define SKILLNODE_TRANSPORT_UV_PORTMAP_GATEWAY_MAPPING_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/result.h"

namespace skillnode::transport::uv::portmap {

enum class GatewayProtocol : uint8_t { kNatPmp, kUpnp };

// How long a blocking exchange may go on: until `deadline`, or until `*cancelled` turns true.
struct ExchangeBudget {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancelled = nullptr;  // null: never cancelled

  // `length` from now.
  static ExchangeBudget Within(Duration length, const std::atomic<bool>* cancelled = nullptr);
  // Past the deadline, or cancelled.
  bool Spent() const;
};

// "nat-pmp", "upnp": the API's and the metrics' names.
std::string_view GatewayProtocolName(GatewayProtocol protocol);

struct GatewayMapping {
  GatewayProtocol protocol = GatewayProtocol::kNatPmp;
  Endpoint external;               // the gateway's public address and the port it forwards
  uint16_t internal_port = 0;      // this host's UDP port it forwards to
  uint32_t lifetime_s = 0;         // granted; 0: until removed (UPnP permanent leases)
  std::string upnp_control_url;    // UPnP: where renewals and the removal go
  std::string upnp_service_type;   // UPnP: the WANIPConnection service
  std::string upnp_internal_host;  // UPnP: this host's LAN address, as the gateway sees it
};

// Renews `mapping` with the protocol that made it (UPnP: the same control URL, no discovery).
Result<GatewayMapping> Renew(const GatewayMapping& mapping, const ExchangeBudget& budget);
// Removes `mapping` from its gateway.
Result<bool> Unmap(const GatewayMapping& mapping, const ExchangeBudget& budget);

}  // namespace skillnode::transport::uv::portmap

#endif  // SKILLNODE_TRANSPORT_UV_PORTMAP_GATEWAY_MAPPING_H_
