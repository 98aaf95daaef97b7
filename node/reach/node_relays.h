// NodeRelays: what the daemon says of relaying (kademlia/reach/relay_driver.h, docs/protocol.md
// "Relays"): in GET /api/node a "relay" section (the relays this node keeps reservations at
// while it is a client, the clients it carries for, and the counts of what it carried and
// refused), and in /metrics the gauges and counters of both parts.
//
// Loop thread only.
#ifndef SKILLNODE_NODE_REACH_NODE_RELAYS_H_
#define SKILLNODE_NODE_REACH_NODE_RELAYS_H_

#include <memory>
#include <nlohmann/json.hpp>

#include "node/daemon.h"
#include "node/http/prometheus.h"

namespace skillnode::node::reach {

class NodeRelays {
 public:
  // Registers the "relay" section and the metrics with `daemon`, which must outlive this.
  explicit NodeRelays(Daemon& daemon);
  NodeRelays(const NodeRelays&) = delete;
  NodeRelays& operator=(const NodeRelays&) = delete;

 private:
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
};

}  // namespace skillnode::node::reach

#endif  // SKILLNODE_NODE_REACH_NODE_RELAYS_H_
