// RelayTable: the clients this node relays for (docs/protocol.md "Relays"), and the limits on
// what it carries for them.
//
// A client, a node behind a NAT that strangers cannot reach, keeps a reservation here with
// RELAY_KEEP: the endpoint this node sees it at stays open through its NAT because the client
// keeps sending to it. Anyone may then have a datagram carried to the client (RELAY naming the
// client's id); the client may answer through this node, but only to an endpoint that had a
// datagram carried to it lately (its peers), so a relay is never an open reflector.
//
// Bounded: at most clients_max reservations (a new one past that is refused until one expires;
// a renewal always succeeds), each lasting `lifetime` after its last RELAY_KEEP; per client
// messages_per_second in either direction, total_per_second over all of them (each with a burst
// of twice that), and peers_per_client peers, each for peer_life after its last datagram (the
// oldest goes first). A carried datagram is at most a datagram, so the bytes per client are bounded
// by the message rate. Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_REACH_RELAY_TABLE_H_
#define SKILLNODE_KADEMLIA_REACH_RELAY_TABLE_H_

#include <cstddef>
#include <map>
#include <optional>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/reach/reach_config.h"
#include "kademlia/rpc/rate_limiter.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::reach {

class RelayTable {
 public:
  enum class KeepOutcome {
    kAdded,    // a new reservation
    kRenewed,  // the client had one: its lifetime starts again (at the endpoint seen now)
    kFull,     // clients_max reservations: refused
  };
  enum class Verdict {
    kCarry,          // send the datagram on to `to`
    kNoReservation,  // no live reservation for that client (or from that endpoint)
    kNotAPeer,       // a client answering an endpoint that sent it nothing lately
    kRateLimited,    // past the client's or the total message rate
  };
  struct Route {
    Verdict verdict = Verdict::kNoReservation;
    transport::Endpoint to;
  };

  explicit RelayTable(const RelayLimits& limits) : limits_(limits) {}

  // A RELAY_KEEP from `client`, seen at `seen`.
  KeepOutcome Keep(transport::TimePoint now, const NodeId& client, const transport::Endpoint& seen);
  // Ends `client`'s reservation (it said so, or it left).
  void Release(const NodeId& client);
  // A datagram from `sender` for `client`: where it goes. `sender` becomes one of the client's
  // peers when it is carried.
  Route ToClient(transport::TimePoint now, const NodeId& client, const transport::Endpoint& sender);
  // A datagram from the client at `from` for `to`, one of its peers.
  Route FromClient(transport::TimePoint now, const transport::Endpoint& from,
                   const transport::Endpoint& to);
  // The client that holds a live reservation from `from`, if one does.
  std::optional<NodeId> ClientAt(transport::TimePoint now, const transport::Endpoint& from) const;
  // The endpoint of `client`'s live reservation.
  std::optional<transport::Endpoint> EndpointOf(transport::TimePoint now,
                                                const NodeId& client) const;
  // Drops the expired reservations; returns how many.
  size_t Expire(transport::TimePoint now);

  size_t size() const { return clients_.size(); }
  const RelayLimits& limits() const { return limits_; }

 private:
  struct Peer {
    transport::Endpoint endpoint;
    transport::TimePoint expires = transport::kTimeZero;
  };
  struct Reservation {
    transport::Endpoint seen;
    transport::TimePoint expires = transport::kTimeZero;
    rpc::TokenBucket rate;
    std::vector<Peer> peers;  // at most peers_per_client, the oldest first
  };
  using Clients = std::map<NodeId, Reservation>;

  // Takes a token from the reservation's and the total bucket.
  bool Admit(transport::TimePoint now, Reservation& reservation);
  void Erase(Clients::iterator it);

  RelayLimits limits_;
  Clients clients_;
  std::map<transport::Endpoint, NodeId> by_endpoint_;  // one per reservation
  rpc::TokenBucket total_;
  bool total_started_ = false;
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_RELAY_TABLE_H_
