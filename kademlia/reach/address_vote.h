// AddressVote: a node's external address, voted on by the peers that answer it. Every reply
// carries the requester's address as the replier saw it ("o", kademlia/wire/wire.h); one reply
// is a claim anyone can make, so the node counts the latest claim of each voter group and takes
// an address only when enough groups agree (as BitTorrent's and OpenDHT's nodes do).
//
// Voter groups: a public voter counts once per /24 (IPv4) or /48 (IPv6), so one operator's
// many nodes on one network cast one vote; a non-public voter (loopback, private, link-local:
// a LAN or one host) counts once per address and port. Each group's latest vote is kept for
// vote_life; at most votes_max groups are kept, the oldest vote forgotten first.
//
// The verdict (Current):
//   - the external address is the address (port aside) with the most votes, when it has at
//     least vote_quorum and more than half of the votes counted;
//   - its port is the port most of that address's votes name, under the same rule; when the
//     address has a quorum but no port has, the mapping is kVarying: the NAT gives this node a
//     new port for each peer (endpoint-dependent mapping), so peers cannot reach it at any
//     one endpoint, and hole punching through it fails.
// A vote that changes what a group says, a new group and a vote's expiry recount; a group that
// says the same again is only refreshed, at most once per vote_refresh, so the reply path does
// one map probe per datagram. generation() counts the changes of the verdict, so that a caller
// can tell that the network changed (a new address: check reachability again).
//
// Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_REACH_ADDRESS_VOTE_H_
#define SKILLNODE_KADEMLIA_REACH_ADDRESS_VOTE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

#include "kademlia/reach/reach_config.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::reach {

// How the node's NAT (if any) maps its port, as the votes show it.
enum class PortMapping : uint8_t {
  kUnknown,  // no address has a quorum yet
  kStable,   // peers see one port: the endpoint below
  kVarying,  // peers agree on the address but see different ports
};

struct ExternalAddress {
  std::optional<transport::Address> address;    // set once an address has a quorum
  std::optional<transport::Endpoint> endpoint;  // set when the mapping is kStable
  PortMapping mapping = PortMapping::kUnknown;
  size_t votes = 0;  // votes counted (live, from distinct groups)
  bool operator==(const ExternalAddress&) const = default;
};

class AddressVote {
 public:
  explicit AddressVote(const ReachConfig& config) : config_(config) {}

  // A peer at `voter` (where its reply came from) saw this node at `observed`. Observed
  // addresses no peer could send to (unspecified, multicast, port 0) are ignored.
  void Observe(transport::TimePoint now, const transport::Endpoint& voter,
               const transport::Endpoint& observed);
  // The verdict over the votes still live at `now` (expired votes are dropped first).
  const ExternalAddress& Current(transport::TimePoint now);
  // Incremented each time the verdict changes.
  uint64_t generation() const { return generation_; }
  // Voter groups whose vote is kept (live or not yet dropped).
  size_t size() const { return votes_.size(); }

 private:
  struct Vote {
    transport::Endpoint observed;
    transport::TimePoint cast = transport::kTimeZero;
  };

  // The group `voter` votes in: its /24 or /48 with port 0 when public, else itself.
  static transport::Endpoint GroupOf(const transport::Endpoint& voter);
  // Drops the votes cast before now - vote_life; true when one was dropped.
  bool Expire(transport::TimePoint now);
  // Drops the oldest vote.
  void DropOldest();
  // Counts the votes again and updates the verdict (and the generation when it changed).
  void Recount();

  const ReachConfig& config_;
  std::map<transport::Endpoint, Vote> votes_;  // by voter group
  ExternalAddress current_;
  uint64_t generation_ = 0;
  transport::TimePoint oldest_cast_ = transport::kTimeNever;  // the earliest `cast` in votes_
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_ADDRESS_VOTE_H_
