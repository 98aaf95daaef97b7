// RecentDestinations: the endpoints this node sent a datagram to lately, so that a dial-back
// (reach_verdict.h) from one of them is not taken for a stranger's: a NAT in front of this
// node lets that peer's datagrams in for a while after each one this node sent it, which tells
// nothing about strangers.
//
// Each endpoint is kept recent_destination_life after the last datagram sent to it, at most
// recent_destinations_max of them, the least recently sent to forgotten first. Forgetting one
// before its life ended would make a reply look like a stranger's, so while the table is too
// small for the traffic (an entry was forgotten young, until that entry's life would have
// ended) every endpoint counts as possibly contacted.
//
// Matching is per endpoint (address and port): a dial-back comes from a port of the third party
// this node never sent to. A NAT that lets in any port of an address it sent to (an
// address-restricted cone) is therefore not told apart when this node also talked to the third
// party's address (docs/protocol.md "Reachability").
//
// Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_REACH_RECENT_DESTINATIONS_H_
#define SKILLNODE_KADEMLIA_REACH_RECENT_DESTINATIONS_H_

#include <cstddef>

#include "kademlia/flat_linked_map.h"
#include "kademlia/reach/reach_config.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::reach {

class RecentDestinations {
 public:
  explicit RecentDestinations(const ReachConfig& config) : config_(config) {}

  // This node sent a datagram to `to` at `now`.
  void Sent(transport::TimePoint now, const transport::Endpoint& to);
  // Whether a datagram from `from` at `now` may be a peer's this node sent to within
  // recent_destination_life (always true while the table is too small: see above).
  bool MaybeContacted(transport::TimePoint now, const transport::Endpoint& from) const;

  size_t size() const { return sent_.size(); }
  // Whether an endpoint was forgotten before its life ended, and that life has not ended yet.
  bool saturated(transport::TimePoint now) const { return now < saturated_until_; }

 private:
  const ReachConfig& config_;
  FlatLinkedMap<transport::Endpoint, transport::TimePoint> sent_;  // least recently sent first
  transport::TimePoint saturated_until_ = transport::kTimeZero;
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_RECENT_DESTINATIONS_H_
