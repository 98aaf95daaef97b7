// FakeNetwork: many kademlia::Node instances in one process over a simulated network with a
// virtual clock, for tests. Datagrams arrive after a fixed latency in (time, sequence) order;
// a host can be made silent (it neither sends nor receives), as a crashed node would be, or put
// behind a NAT (it receives only from endpoints it sent to lately), and the network can drop a
// share of all datagrams. Each node sends its dial-backs (Node::SetDialTransport) from a second
// port of its address, DialEndpoint.
// The full simulator (sim/) adds latency models, loss, churn and adversaries; this is the
// small deterministic harness the kademlia tests need.
#ifndef SKILLNODE_TESTS_SUPPORT_FAKE_NETWORK_H_
#define SKILLNODE_TESTS_SUPPORT_FAKE_NETWORK_H_

#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <span>
#include <unordered_map>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/skill_dht.h"
#include "transport/logger.h"
#include "transport/rng.h"
#include "transport/transport.h"

namespace skillnode::testing {

class FakeNetwork {
 public:
  struct Host;

  explicit FakeNetwork(uint64_t seed, transport::Duration latency = transport::Millis(10));
  ~FakeNetwork();

  // A node at 10.a.b.c:6881 (a private address, exempt from diversity limits) whose identity
  // comes from the network's seeded generator.
  kademlia::Node& AddNode(const kademlia::KademliaConfig& config);
  // The same, with the skill store running on the node, whose wall clock is `wall_clock` (the
  // simulated calendar, unless a test sets a host's clock wrong).
  kademlia::store::SkillDht& AddDhtNode(
      const kademlia::KademliaConfig& config, const kademlia::store::DhtConfig& dht_config,
      kademlia::store::WallClock wall_clock = kademlia::store::SimulatedWallClockMs);
  kademlia::store::SkillDht& dht(size_t index);
  size_t size() const { return hosts_.size(); }
  kademlia::Node& node(size_t index);
  transport::Endpoint endpoint(size_t index) const;

  // Where host `index` sends its dial-backs from: its address, port 6882.
  transport::Endpoint dial_endpoint(size_t index) const;

  // A silent host drops everything addressed to it and sends nothing.
  void SetSilent(size_t index, bool silent);
  bool silent(size_t index) const;
  // A host behind a NAT receives a datagram only from an endpoint it sent to within the NAT's
  // flow life (120 s, as Linux conntrack keeps an answered UDP flow, unless a test sets it), and
  // drops the rest, counted by nat_dropped(). Its peers still see it at its own endpoint: the NAT
  // maps it there.
  void SetBehindNat(size_t index, bool behind);
  void SetNatFlowLife(transport::Duration life) { nat_flow_life_ = life; }
  uint64_t nat_dropped() const { return nat_dropped_; }

  // Processes datagrams and timers in time order until nothing is due before `until`, then
  // advances the clock to `until`.
  void RunUntil(transport::TimePoint until);
  void RunFor(transport::Duration duration) { RunUntil(now_ + duration); }
  transport::TimePoint now() const { return now_; }
  transport::Rng& rng() { return rng_; }

  uint64_t delivered() const { return delivered_; }
  // Drops each datagram sent from now on with probability `loss` (seeded).
  void SetLoss(double loss) { loss_ = loss; }
  // Cuts the network in two: datagrams between a host in `side` and one outside it are
  // dropped until Heal().
  void Partition(std::vector<size_t> side);
  void Heal() { side_.clear(); }
  uint64_t lost() const { return lost_; }

 private:
  struct Datagram {
    transport::TimePoint at;
    uint64_t sequence;
    size_t from;
    transport::Endpoint source;  // the sender's endpoint or its dial endpoint
    transport::Endpoint to;
    std::vector<uint8_t> bytes;
  };
  struct Later {
    bool operator()(const Datagram& a, const Datagram& b) const {
      return a.at != b.at ? a.at > b.at : a.sequence > b.sequence;
    }
  };

  void Enqueue(size_t from, const transport::Endpoint& source, const transport::Endpoint& to,
               std::span<const uint8_t> bytes);
  // Whether the NAT in front of `host` (if any) lets in a datagram from `source` now.
  bool NatAdmits(size_t host, const transport::Endpoint& source) const;
  void Reschedule(size_t index);

  transport::Duration latency_;
  transport::TimePoint now_ = transport::kTimeZero + transport::Seconds(1);
  transport::Rng rng_;
  transport::NullLogger logger_;
  std::vector<std::unique_ptr<Host>> hosts_;
  std::unordered_map<transport::Endpoint, size_t> by_endpoint_;
  std::vector<bool> side_;  // empty: no partition
  std::vector<transport::Endpoint> endpoints_;
  std::priority_queue<Datagram, std::vector<Datagram>, Later> in_flight_;
  std::set<std::pair<transport::TimePoint, size_t>> timers_;  // (deadline, host)
  std::vector<transport::TimePoint> scheduled_;               // each host's entry in timers_
  uint64_t sequence_ = 0;
  uint64_t delivered_ = 0;
  double loss_ = 0;
  uint64_t lost_ = 0;
  uint64_t nat_dropped_ = 0;
  transport::Duration nat_flow_life_ = transport::Seconds(120);
};

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_FAKE_NETWORK_H_
