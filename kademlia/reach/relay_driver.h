// RelayDriver: a node's two parts in relaying (docs/protocol.md "Relays"), over the node's
// messages:
//   - the relay: a RELAY_KEEP is answered from its RelayTable (RELAY_KEPT with the lifetime
//     granted, or ERROR kRelayFull); a RELAY (to a client, by its id) or a RELAY_BACK (from a
//     client, to one of its peers) is carried on as RELAYED, naming the endpoint it came from,
//     within the table's limits; every node does this part;
//   - the client: while the node is a client it keeps reservations at up to relays_max routing
//     contacts closest to its own id (they are full nodes: a client is in nobody's table),
//     RELAY_KEEP every keep_interval; a relay that fails or refuses is replaced by the next
//     closest, and not asked again for retry_after.
// Opening a RELAYED is the node's: the datagram inside re-enters its receive path.
//
// The Node owns it and gives it ways to send (Actions). Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_REACH_RELAY_DRIVER_H_
#define SKILLNODE_KADEMLIA_REACH_RELAY_DRIVER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/reach/relay_table.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/rpc/rpc_table.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"
#include "transport/endpoint.h"
#include "transport/result.h"

namespace skillnode::kademlia::reach {

struct RelayStats {
  // As a relay.
  uint64_t keeps_granted = 0;       // RELAY_KEEP answered RELAY_KEPT
  uint64_t keeps_refused = 0;       // RELAY_KEEP answered ERROR kRelayFull
  uint64_t keeps_unproven = 0;      // RELAY_KEEP answered ERROR kRelayUnproven
  uint64_t carried = 0;             // RELAY or RELAY_BACK carried on as RELAYED
  uint64_t refused_no_client = 0;   // ... not carried: no live reservation
  uint64_t refused_not_a_peer = 0;  // ... not carried: a client answering a stranger
  uint64_t refused_rate = 0;        // ... not carried: past the rate limits
  // As a client.
  uint64_t keeps_sent = 0;    // RELAY_KEEP sent
  uint64_t keeps_failed = 0;  // ... not answered RELAY_KEPT (a relay given up)
};

class RelayDriver {
 public:
  struct Actions {
    // Sends a request to `to_id` at `to`; false when it was not sent, and then `done` is never
    // called.
    std::function<bool(transport::TimePoint now, const transport::Endpoint& to, const NodeId& to_id,
                       wire::Body body, rpc::RpcCallback done)>
        send;
    // Sends the notice `body` (RELAYED) to `to`.
    std::function<void(transport::TimePoint now, const transport::Endpoint& to, wire::Body body)>
        notice;
  };
  // A relay this client holds a reservation at.
  struct Held {
    Contact relay;
    transport::TimePoint expires = transport::kTimeZero;
  };

  // `id` and `routing` are the node's and must outlive this.
  RelayDriver(const RelayConfig& config, const NodeId& id, const routing::RoutingTable& routing,
              Actions actions);
  RelayDriver(const RelayDriver&) = delete;
  RelayDriver& operator=(const RelayDriver&) = delete;

  // A RELAY_KEEP from `client` at `from`: the reply. `proven`: the client proved its key from
  // `from` (a reservation names where its datagrams go, so a spoofed source must not get
  // one); else the answer is ERROR kRelayUnproven, and the node has it prove its key.
  wire::Body OnKeep(transport::TimePoint now, const transport::Endpoint& from, const NodeId& client,
                    bool proven, const wire::RelayKeepBody& keep);
  // A RELAY or RELAY_BACK from `from`: carried on, or dropped and counted.
  void OnRelay(transport::TimePoint now, const transport::Endpoint& from, const wire::Body& body);

  // What a RELAYED from `relay` carried, once opened: the message, the endpoint it counts as
  // coming from, and whether the node's reply goes back through the relay.
  struct Opened {
    wire::Message message;
    transport::Endpoint from;
    bool reply_through_relay = false;
  };
  // Opens a RELAYED from `relay`. A request is taken only from a relay this client holds a
  // reservation at, and counts as coming from where the relay says (its reply goes back through
  // the relay); a reply only when it answers a request `rpcs` sent through that relay, and
  // counts as coming from the client that request went to. Anything else (a notice, a datagram
  // that does not decode) is refused with the reason.
  transport::Result<Opened> Open(transport::TimePoint now, const transport::Endpoint& relay,
                                 const wire::RelayedBody& relayed, const rpc::RpcTable& rpcs) const;
  // Whether this client holds a live reservation at `relay`.
  bool IsRelay(transport::TimePoint now, const transport::Endpoint& relay) const;
  // The relays this client holds live reservations at, the closest to its id first.
  std::vector<Held> held(transport::TimePoint now) const;

  // Keeps the client's reservations while `client` (renews those due, asks new relays for the
  // missing ones), lets them go when not; call at NextDeadline and when client mode changes.
  void OnTimer(transport::TimePoint now, bool client);
  transport::TimePoint NextDeadline() const { return next_deadline_; }

  const RelayTable& table() const { return table_; }
  const RelayStats& stats() const { return stats_; }
  // Counts the changes of held(): a relay granted that was not held, or a held one lost. A
  // client's subscriptions name its relays in their LISTENs and renew when this moves.
  uint64_t held_changes() const { return held_changes_; }
  // Relays this client does not ask again yet (at most RelayConfig::given_up_max).
  size_t given_up() const { return given_up_.size(); }

 private:
  struct Reservation {
    Contact relay;
    bool asking = false;  // a RELAY_KEEP is in flight
    int unproven = 0;     // answers in a row that asked for a proof of this node's key
    transport::TimePoint expires = transport::kTimeZero;
    transport::TimePoint next_keep = transport::kTimeZero;
  };
  void Ask(transport::TimePoint now, const Contact& relay);
  void Kept(const NodeId& relay, const rpc::RpcResult& result);
  void Fill(transport::TimePoint now);
  // Not asked again before `until`, within given_up_max. True when that made the node forget
  // another relay it had given up on (or, with given_up_max 0, this one).
  bool GiveUp(const NodeId& relay, transport::TimePoint until);
  void UpdateDeadline(transport::TimePoint now);

  RelayConfig config_;
  const NodeId& id_;
  const routing::RoutingTable& routing_;
  Actions actions_;
  RelayTable table_;
  std::map<NodeId, Reservation> reservations_;  // at most relays_max, by relay id
  // Relay id -> when it may be asked again; at most given_up_max.
  std::map<NodeId, transport::TimePoint> given_up_;
  bool client_ = false;
  uint64_t held_changes_ = 0;
  transport::TimePoint next_deadline_ = transport::kTimeNever;
  RelayStats stats_;
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_RELAY_DRIVER_H_
