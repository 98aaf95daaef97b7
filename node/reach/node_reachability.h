// NodeReachability: the daemon's part in the dial-back protocol (kademlia/reach/reach_driver.h,
// docs/protocol.md "Reachability"). It opens the dial port, a second, send-only UDP socket on
// the DHT socket's addresses with a port of the kernel's choosing, from which the node sends
// the dial-backs it makes as a third party (a peer never sent to that port, so its NAT lets a
// dial-back in only when it lets strangers in); and it reports what the node knows of itself in
// GET /api/node ("reachability": "public" | "nat" | "unknown", "externalAddress", and a
// "reach" section with the probes' counts) and in /metrics. The socket closes with the daemon's
// handles.
//
// Loop thread only.
#ifndef SKILLNODE_NODE_REACH_NODE_REACHABILITY_H_
#define SKILLNODE_NODE_REACH_NODE_REACHABILITY_H_

#include <memory>
#include <nlohmann/json.hpp>

#include "node/daemon.h"
#include "node/http/prometheus.h"
#include "transport/uv/udp_transport.h"

namespace skillnode::node::reach {

class NodeReachability {
 public:
  // The part, started: the dial port opened when the DHT runs (a dial port that cannot be opened
  // is logged, and the node dials back from its DHT socket). Never null.
  static std::unique_ptr<NodeReachability> Start(Daemon& daemon);
  NodeReachability(const NodeReachability&) = delete;
  NodeReachability& operator=(const NodeReachability&) = delete;

 private:
  explicit NodeReachability(Daemon& daemon);

  void OpenDialPort();
  nlohmann::json ExternalAddress() const;
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  transport::uv::UdpTransport dial_port_;
  bool dial_port_open_ = false;
};

}  // namespace skillnode::node::reach

#endif  // SKILLNODE_NODE_REACH_NODE_REACHABILITY_H_
