// NodesAnswer: the k closest contacts without the requester, a relayed client, the token
// (nodes_answer.h).
#include "kademlia/routing/nodes_answer.h"

namespace skillnode::kademlia::routing {

wire::NodesBody NodesAnswer::For(transport::TimePoint now, const transport::Endpoint& from,
                                 const NodeId& requester, const Key& target) const {
  const size_t k = table_.config().bucket_size;
  wire::NodesBody nodes;
  nodes.nodes.reserve(k);
  // One extra so that the requester itself can be left out and k still remain.
  for (const PeerRecord* c : table_.ClosestRecords(target, k + 1)) {
    if (c->id == requester) continue;
    if (nodes.nodes.size() == k) break;
    nodes.nodes.push_back(wire::WireContact{c->id, c->endpoint});
  }
  if (auto seen = relays_.EndpointOf(now, target)) {
    nodes.relayed.push_back(wire::WireContact{target, *seen});
  }
  nodes.token = tokens_.For(from.address());
  return nodes;
}

}  // namespace skillnode::kademlia::routing
