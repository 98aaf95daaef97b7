// LookupDriver: runs a node's iterative lookups (FIND_NODE, or FIND_VALUE and BLOB_FIND for the
// services) over kademlia/lookup/lookup.h. It starts each from the routing table's closest
// contacts, sends the queries the lookup asks for (with a soft deadline per contact), feeds it the
// replies and failures, moves on past queries that turned slow, and finishes it with its
// result: each lookup's callback is called exactly once, unless Start refused it.
//
// Owns the running lookups; the routing table, the RTT estimate and the stats are the Node's
// (kademlia/node.h), which owns this driver and sends its requests (Send). Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_LOOKUP_LOOKUP_DRIVER_H_
#define SKILLNODE_KADEMLIA_LOOKUP_LOOKUP_DRIVER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>

#include "kademlia/config.h"
#include "kademlia/lookup/lookup.h"
#include "kademlia/node_stats.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/rpc/rpc_table.h"
#include "kademlia/wire/wire.h"

namespace skillnode::kademlia {

// What an iterative lookup sends and how it treats replies (FIND_NODE when left empty).
struct LookupOptions {
  // The request body for each contact asked.
  std::function<wire::Body(const Key& target)> request;
  // Sees every verified reply; returns true to end the lookup at once (found enough).
  std::function<bool(transport::TimePoint now, const Contact& from, const wire::Message& reply)>
      on_reply;
  // Times a slow query to one of the `slow_retry_rank` closest is sent again before the
  // lookup moves on without it (LookupParams::slow_retries).
  size_t slow_retries = 0;
  size_t slow_retry_rank = std::numeric_limits<size_t>::max();
  // How many of the closest contacts must have answered (or failed) for the lookup to end, and
  // the most it returns: 0 means k (the bucket size). A get needs its key's r holders and a
  // margin, not all k.
  size_t closest_wanted = 0;
};

class LookupDriver {
 public:
  // Sends one request for a lookup; false when it could not be sent (the in-flight table is
  // full, or the node is shut down), and then `done` is never called.
  using Send = std::function<bool(transport::TimePoint now, const transport::Endpoint& to,
                                  const NodeId& to_id, wire::Body body, rpc::RpcCallback done)>;

  LookupDriver(const KademliaConfig& config, const NodeId& self, routing::RoutingTable& routing,
               const rpc::RttEstimator& rtt, NodeStats& stats, Send send);
  LookupDriver(const LookupDriver&) = delete;
  LookupDriver& operator=(const LookupDriver&) = delete;

  // Starts a lookup for `target`. Returns false (and never calls `done`) when lookups_max
  // lookups are running.
  bool Start(transport::TimePoint now, const Key& target, LookupOptions options,
             LookupCallback done);
  // Moves the lookups whose queries turned slow on to other contacts (or finishes them).
  void OnTimer(transport::TimePoint now);
  // The earliest soft deadline of a running lookup's query.
  transport::TimePoint NextDeadline() const;
  // Finishes every lookup with what it has (at shutdown).
  void FinishAll(transport::TimePoint now);
  size_t size() const { return lookups_.size(); }

 private:
  struct ActiveLookup {
    Lookup lookup;
    LookupOptions options;
    LookupCallback done;
  };

  void Step(transport::TimePoint now, uint64_t lookup_id);
  void OnReply(uint64_t lookup_id, const NodeId& queried, const rpc::RpcResult& result);
  void Finish(transport::TimePoint now, uint64_t lookup_id);

  const KademliaConfig& config_;
  const NodeId& self_;
  routing::RoutingTable& routing_;
  const rpc::RttEstimator& rtt_;
  NodeStats& stats_;
  Send send_;
  std::map<uint64_t, ActiveLookup> lookups_;
  uint64_t next_lookup_id_ = 1;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_LOOKUP_LOOKUP_DRIVER_H_
