// NodesAnswer: what a node answers a FIND_NODE with (docs/protocol.md "Messages"): the k
// contacts of its routing table closest to the target, the requester itself left out (a lookup
// learns nothing from its own id, and k others still come back); the target at the endpoint this
// node sees it at when this node relays for it (a client is in nobody's table, so a lookup for
// its id ends at its relays, docs/protocol.md "Hole punching"); and a write token for the
// requester's address (rpc/write_token.h), which a STORE to this node must show.
//
// The Node holds one and asks it for each FIND_NODE it answers. Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_ROUTING_NODES_ANSWER_H_
#define SKILLNODE_KADEMLIA_ROUTING_NODES_ANSWER_H_

#include <cstddef>

#include "kademlia/key.h"
#include "kademlia/reach/relay_table.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/rpc/write_token.h"
#include "kademlia/wire/wire_bodies.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::routing {

class NodesAnswer {
 public:
  // All three must outlive this. k is the table's bucket_size.
  NodesAnswer(const RoutingTable& table, const reach::RelayTable& relays,
              const rpc::WriteTokens& tokens)
      : table_(table), relays_(relays), tokens_(tokens) {}

  // The NODES body for a FIND_NODE for `target` from `requester` at `from`.
  wire::NodesBody For(transport::TimePoint now, const transport::Endpoint& from,
                      const NodeId& requester, const Key& target) const;

 private:
  const RoutingTable& table_;
  const reach::RelayTable& relays_;
  const rpc::WriteTokens& tokens_;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_NODES_ANSWER_H_
