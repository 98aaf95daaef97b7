// NatRouters: the routers in front of the simulated hosts behind NATs (scenario NatSpec), as
// most hosts that run agents sit: a home router, a cloud VPC, a container network.
//
// A share of the honest hosts, chosen from the seed by slot (a hash: the same hosts on any
// number of threads, whatever else the seed draws), is behind a router of its own. The router
// keeps the host's port (endpoint-independent mapping: peers see the host's own address, as
// they would see its router's) and filters by address: a datagram comes in only from an
// address the host sent to within the last pinhole_s (address-restricted filtering, RFC 4787),
// at most pinholes_max addresses at once, the least recently used leaving first. So a request
// from a peer the host never contacted, a third party's dial-back, or a lookup's request to a
// NATed contact learned from someone else is dropped, and the host's own requests are
// answered.
//
// Lanes: a host's router is written when it sends (its lane) and read when a datagram arrives
// for it (its lane too); which hosts are behind NATs never changes. Not otherwise thread-safe.
#ifndef SKILLNODE_SIM_NETWORK_NAT_H_
#define SKILLNODE_SIM_NETWORK_NAT_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/scenario/scenario.h"
#include "transport/clock.h"

namespace skillnode::sim::network {

class NatRouters {
 public:
  NatRouters(const scenario::NatSpec& spec, uint64_t seed);

  // Hosts [0, hosts) may be behind NATs, each with probability spec.share (the honest hosts;
  // adversaries and aliases never are). Called once, before any datagram.
  void Place(uint32_t hosts);

  bool BehindNat(uint32_t slot) const { return slot < behind_.size() && behind_[slot] != 0; }
  size_t hosts_behind() const { return routers_.size(); }

  // Host `from` sent a datagram to address slot `to` at `now`: the pinhole for `to` is open
  // until now + pinhole_s. Only for a host behind a NAT.
  void OnSent(uint32_t from, uint32_t to, transport::TimePoint now);
  // Whether a datagram from address slot `from` gets through to host `to` at `now`: always
  // for a public host.
  bool Admits(uint32_t to, uint32_t from, transport::TimePoint now) const;

 private:
  struct Router {
    // Address slot -> when the host last sent to it.
    std::unordered_map<uint32_t, transport::TimePoint> pinholes;
  };
  // Makes room for one more pinhole: those closed at `now` go, then the least recently used.
  void Prune(Router& router, transport::TimePoint now) const;

  scenario::NatSpec spec_;
  uint64_t seed_;
  transport::Duration pinhole_;
  std::vector<uint32_t> behind_;  // per host slot: 1 + its router's index, 0 when public
  std::vector<Router> routers_;
};

}  // namespace skillnode::sim::network

#endif  // SKILLNODE_SIM_NETWORK_NAT_H_
