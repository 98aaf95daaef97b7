// PeerUpkeep: what a node does about the peers it hears from and the ones it fails to reach,
// beside the bookkeeping itself (PeerBook, kademlia/routing/peer_book.h). A requester that has
// not proved its key from its address is asked to sign a ping first (or left alone when the
// routing table has no use for it); a peer that proved its key is remembered and heard, which
// may add it to the table or ping a full bucket's oldest contact; a failed request counts
// against its contact and forgets its proof; a departed contact is probed when due, and one that
// answers again starts a lookup of our own id (rate-limited by departed_probe_after).
//
// Owns the time of the next such lookup; the config, the routing table, the PeerBook and the
// stats are the Node's (kademlia/node.h), which owns this helper and carries out what it asks
// through Actions (send a request, tell the services of a contact added or evicted, look up
// our own id). Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_ROUTING_PEER_UPKEEP_H_
#define SKILLNODE_KADEMLIA_ROUTING_PEER_UPKEEP_H_

#include <functional>

#include "kademlia/config.h"
#include "kademlia/contact.h"
#include "kademlia/node_stats.h"
#include "kademlia/routing/peer_book.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/rpc/rpc_table.h"
#include "kademlia/wire/wire.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::routing {

class PeerUpkeep {
 public:
  // What the node does for this helper; every one must be set.
  struct Actions {
    // Sends one request to `to_id` at `to`; false when it was not sent, and then `done` is
    // never called.
    std::function<bool(transport::TimePoint now, const transport::Endpoint& to, const NodeId& to_id,
                       wire::Body body, rpc::RpcCallback done)>
        send;
    // A verified contact entered the routing table.
    std::function<void(transport::TimePoint now, const Contact& contact)> added;
    // A contact left the routing table after failing (it is kept as departed).
    std::function<void(transport::TimePoint now, const NodeId& id)> evicted;
    // Looks up our own id (a departed contact answered again).
    std::function<void(transport::TimePoint now)> rejoin;
  };

  PeerUpkeep(const KademliaConfig& config, RoutingTable& routing, PeerBook& peers, NodeStats& stats,
             Actions actions);
  PeerUpkeep(const PeerUpkeep&) = delete;
  PeerUpkeep& operator=(const PeerUpkeep&) = delete;

  // A request from `from` was answered: a sender proven at that address is heard; an unproven
  // one is verified (VerifyRequester) when the table wants it or it asks for a chunk, else
  // skipped. A sender in client mode ("c") is never heard: one the table holds, or one asking
  // for a chunk, is pinged, and its reply decides (HearVerified).
  void ConsiderRequester(transport::TimePoint now, const transport::Endpoint& from,
                         const wire::Message& request);
  // Pings `id` at `from` for a signed reply, even when the table has no room for it
  // (Node::VerifyRequester); does nothing while one runs for that id or address, or past
  // verifications_in_flight_max.
  void VerifyRequester(transport::TimePoint now, const transport::Endpoint& from, const NodeId& id);
  // A message from a verified peer arrived (a reply to our request); `rtt` is its round trip
  // when it answered ours. A peer in client mode is remembered as proven but kept out of the
  // table, and removed from it if there.
  void HearVerified(transport::TimePoint now, const transport::Endpoint& from,
                    const wire::Header& header, transport::Duration rtt = transport::Duration{});
  // A request to `id` at `at` failed: it counts against the contact, and its verification is
  // forgotten, only where we know `id` at that address (another node may have named it there).
  void FailedAt(transport::TimePoint now, const NodeId& id, const transport::Endpoint& at);
  // `id` said from `from` that it is leaving (LEAVE): it leaves the routing table (services
  // told) and is not kept as departed. Only where the table knows `id` at that address: a
  // LEAVE is not signed, and one from elsewhere must not cost a node its place.
  void Left(transport::TimePoint now, const transport::Endpoint& from, const NodeId& id);
  // Probes the departed contact that is due, if any; call at NextDeadline().
  void OnTimer(transport::TimePoint now);
  // When the next departed contact is due for a probe.
  transport::TimePoint NextDeadline() const { return peers_.departed().NextDue(); }

 private:
  // Pings the contact that hearing `contact` asked for, and reports `contact` when it entered
  // the table.
  void Inserted(transport::TimePoint now, const Contact& contact, const InsertResult& inserted);
  // `id` said it is a client: out of the routing table if it is there (services told).
  void DropClient(transport::TimePoint now, const NodeId& id);
  // Takes `id` out of the routing table (services told when it was a bucket contact); false
  // when the table did not hold it.
  bool RemoveContact(transport::TimePoint now, const NodeId& id);
  // Pings a full bucket's oldest contact: a reply refreshes it (HearVerified), a timeout counts
  // a failure (FailedAt).
  void PingOldest(transport::TimePoint now, const Contact& oldest);

  const KademliaConfig& config_;
  RoutingTable& routing_;
  PeerBook& peers_;
  NodeStats& stats_;
  const Actions actions_;
  // A returned contact starts a self-lookup no earlier than this.
  transport::TimePoint next_rejoin_lookup_ = transport::kTimeZero;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_PEER_UPKEEP_H_
