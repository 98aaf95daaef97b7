// NodePaths: reaching a node by its id through the daemon (kademlia/reach/hole_puncher.h,
// docs/protocol.md "Hole punching"): GET /api/dht/path?id=<64 hex digits> finds the node and the
// path to it (direct, punched, relayed or unreachable), with the endpoint it answered at, its
// relay and the round trip; GET /api/node has a "punch" section with the counts of both sides,
// and /metrics skillnode_connects_total{path} and skillnode_punches_total{result}.
//
// Loop thread only.
#ifndef SKILLNODE_NODE_REACH_NODE_PATHS_H_
#define SKILLNODE_NODE_REACH_NODE_PATHS_H_

#include <nlohmann/json.hpp>

#include "kademlia/reach/hole_puncher.h"
#include "node/daemon.h"
#include "node/http/prometheus.h"

namespace skillnode::node::reach {

class NodePaths {
 public:
  // Registers the route, the "punch" section and the metrics with `daemon`, which must outlive
  // this.
  explicit NodePaths(Daemon& daemon);
  NodePaths(const NodePaths&) = delete;
  NodePaths& operator=(const NodePaths&) = delete;

  // The JSON answer for a connection that ended.
  static nlohmann::json ConnectionJson(const kademlia::reach::HolePuncher::Connection& connection);

 private:
  void HandlePath(const http::HttpRequest& request, http::Responder responder);
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
};

}  // namespace skillnode::node::reach

#endif  // SKILLNODE_NODE_REACH_NODE_PATHS_H_
