// The DHT's metrics for /metrics: the Kademlia node's counters (kademlia/node_stats.h), its
// routing table and the UDP transport's, in Prometheus families named skillnode_*.
//
// Incoming datagrams dropped by the node and by the transport share one family,
// skillnode_datagrams_dropped_total{reason}; outgoing ones that never left share
// skillnode_datagrams_send_failed_total{reason}.
#ifndef SKILLNODE_NODE_NODE_METRICS_H_
#define SKILLNODE_NODE_NODE_METRICS_H_

#include "kademlia/node.h"
#include "kademlia/store/skill_dht.h"
#include "node/http/prometheus.h"
#include "transport/uv/udp_transport.h"

namespace skillnode::node {

void WriteNodeMetrics(http::PrometheusWriter& out, const kademlia::Node& node,
                      const transport::uv::UdpStats& udp);

// The skill store's: records, bytes and keys held for others, STOREs accepted and refused by
// reason, FIND_VALUE served, expiry, handoff, publishing and listen counters.
void WriteStoreMetrics(http::PrometheusWriter& out, const kademlia::store::SkillDht& dht);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_NODE_METRICS_H_
