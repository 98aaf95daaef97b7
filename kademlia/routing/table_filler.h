// TableFiller: fills the routing table and keeps it filled. Joining pings the seeds, looks up
// the node's own id once every ping has finished, then runs a lookup for a random key in every
// bucket farther away, so that the table learns contacts at every distance (Kademlia paper
// 2.3); afterwards, each bucket that saw no lookup for bucket_refresh_interval gets one
// (RoutingTable::RefreshTargets). The requests go through the node (Actions), which refuses
// them once it is shut down, so a join that outlives its node stops at its next step.
#ifndef SKILLNODE_KADEMLIA_ROUTING_TABLE_FILLER_H_
#define SKILLNODE_KADEMLIA_ROUTING_TABLE_FILLER_H_

#include <cstddef>
#include <functional>
#include <span>

#include "kademlia/key.h"
#include "kademlia/lookup/lookup.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/rpc/rpc_table.h"
#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/rng.h"

namespace skillnode::kademlia::routing {

// Called when joining finished: how many contacts the routing table holds.
using JoinCallback = std::function<void(size_t contacts)>;

class TableFiller {
 public:
  struct Actions {
    // Pings an address whose node id may be unknown; false (and `done` never called) when the
    // node refuses the request.
    std::function<bool(transport::TimePoint, const transport::Endpoint&, rpc::RpcCallback)> ping;
    // Starts a node lookup; false (and `done` never called) when the node refuses it.
    std::function<bool(transport::TimePoint, const Key&, LookupCallback)> find_node;
  };

  TableFiller(RoutingTable& routing, transport::Rng& rng, Actions actions);
  TableFiller(const TableFiller&) = delete;
  TableFiller& operator=(const TableFiller&) = delete;

  // Joins through `seeds`. `done` runs once: after the own-id lookup, or at once when no seed
  // answered (the table is still empty), no ping could be sent or the lookup was refused.
  void Join(transport::TimePoint now, std::span<const transport::Endpoint> seeds,
            JoinCallback done);
  // Looks up a random key in every bucket due for refresh, until the node refuses one.
  void OnTimer(transport::TimePoint now);
  // When the next bucket falls due; never while the table is empty.
  transport::TimePoint NextDeadline() const;

 private:
  // Pings finished: the own-id lookup, then the farther buckets, then `done`.
  void AfterPings(transport::TimePoint now, JoinCallback done);
  void RefreshFartherBuckets(transport::TimePoint now);

  RoutingTable& routing_;
  transport::Rng& rng_;
  Actions actions_;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_TABLE_FILLER_H_
