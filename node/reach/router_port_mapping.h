// RouterPortMapping: the daemon's part that keeps the DHT port mapped on the home router
// (transport/uv/portmap/port_mapper.h: NAT-PMP, then UPnP IGD), so that a node behind a router
// that offers either is reachable at the router's public address (docs/protocol.md
// "Reachability"). On when discovery.dht.portMapping is (the default) and the DHT socket is
// bound to an IPv4 address that is not loopback (a router maps IPv4 only; a node on 127.0.0.1
// has nothing to map). It reports the mapping in GET /api/node ("portMapping") and /metrics,
// removes it as a shutdown step, and closes its timer with the daemon's handles. A mapping made,
// moved or lost has the node's dial-backs decide its reachability again (ReachDriver::Recheck).
//
// Loop thread only.
#ifndef SKILLNODE_NODE_REACH_ROUTER_PORT_MAPPING_H_
#define SKILLNODE_NODE_REACH_ROUTER_PORT_MAPPING_H_

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "node/daemon.h"
#include "node/http/prometheus.h"
#include "transport/uv/portmap/port_mapper.h"

namespace skillnode::node::reach {

class RouterPortMapping {
 public:
  // The part, started; nullptr when port mapping is off or there is no port to map, and then
  // GET /api/node's portMapping is {"state": "off", "reason": why}.
  static std::unique_ptr<RouterPortMapping> Start(Daemon& daemon);
  RouterPortMapping(const RouterPortMapping&) = delete;
  RouterPortMapping& operator=(const RouterPortMapping&) = delete;

  const transport::uv::portmap::PortMapper& mapper() const { return mapper_; }

 private:
  RouterPortMapping(Daemon& daemon, uint16_t port);

  // The mapper's news (PortMapper calls it only when something moved): a mapping made, renewed
  // at another endpoint, or lost.
  void OnChanged(const std::optional<transport::uv::portmap::GatewayMapping>& mapping);
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  uint16_t port_;
  bool stopping_ = false;  // the shutdown step is removing the mapping
  transport::uv::portmap::PortMapper mapper_;
};

// The DHT port a router should map: that of the first IPv4 socket not bound to loopback.
std::optional<uint16_t> MappablePort(const std::vector<transport::Endpoint>& sockets);

}  // namespace skillnode::node::reach

#endif  // SKILLNODE_NODE_REACH_ROUTER_PORT_MAPPING_H_
