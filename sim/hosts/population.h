// Population: every simulated host, online or not, and what the oracle knows about them.
//
// Slots are fixed places in the network (an address and a region). Slots [0, honest_slots())
// run honest nodes; the rest run adversaries of the scenario's model, which never churn. A
// slot is offline (no host) or runs one incarnation of a host; an incarnation enters the
// oracle when its join completes and leaves it when the host stops. The population keeps one
// timer event per host in the queue at the host's NextDeadline() (stale ones are skipped by
// generation), and delivers datagrams to hosts.
//
// The event queue's lanes run side by side (event_queue.h). Each lane has its own clock, and
// a host's node reads the clock of its slot's lane; between batches every clock shows the
// simulation's `now`. Deliver, OnTimer and Reschedule may run in a lane for that lane's slots;
// they change nothing shared. So a join that finishes in a lane only schedules a kJoined
// control event, and the slot enters the oracle when that runs (OnJoined), after the batch.
// Everything else runs between batches.
#ifndef SKILLNODE_SIM_HOSTS_POPULATION_H_
#define SKILLNODE_SIM_HOSTS_POPULATION_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sim/engine/event_queue.h"
#include "sim/engine/trace_hash.h"
#include "sim/hosts/host.h"
#include "sim/hosts/online_time.h"
#include "sim/network/network.h"
#include "sim/report/node_totals.h"
#include "sim/report/reach_census.h"
#include "sim/scenario/scenario.h"
#include "sim/workloads/oracle.h"
#include "transport/logger.h"

namespace skillnode::sim::hosts {

class Population {
 public:
  struct Slot {
    std::unique_ptr<Host> host;  // null while offline
    HostKind kind = HostKind::kHonest;
    uint32_t incarnation = 0;  // counts starts; 0 before the first
    bool leaving = false;      // inside Stop(): callbacks firing now are cut short
    transport::TimePoint joined_at = transport::kTimeNever;
    transport::TimePoint timer_at = transport::kTimeNever;
    uint64_t timer_generation = 0;
    kademlia::Seed seed{};                    // the identity of the next start
    std::vector<kademlia::Contact> saved;     // rejoin: keep — the table at the last stop
    std::function<void(uint32_t)> on_joined;  // while joining: what runs once joined
    int join_attempts = 0;
  };

  using LaneClocks = std::array<transport::TimePoint, engine::EventQueue::kLanes>;

  // `now` is the simulation's virtual clock and `clocks` its lanes'; both must outlive the
  // population.
  Population(const scenario::Scenario& scenario, size_t honest_slots, size_t adversary_slots,
             engine::EventQueue& queue, network::Network& network, const transport::TimePoint& now,
             const LaneClocks& clocks, uint64_t seed);
  ~Population();
  // Hosts keep references to their lane's context: a population never moves.
  Population(const Population&) = delete;
  Population& operator=(const Population&) = delete;

  size_t size() const { return slots_.size(); }
  size_t honest_slots() const { return honest_slots_; }
  Slot& slot(uint32_t i) { return slots_[i]; }
  const Slot& slot(uint32_t i) const { return slots_[i]; }
  bool online(uint32_t i) const { return slots_[i].host != nullptr; }
  bool joined(uint32_t i) const {
    return online(i) && slots_[i].joined_at != transport::kTimeNever;
  }

  // Creates the host of an offline slot: the slot's identity and, for rejoin keep, its saved
  // routing table. A new identity is drawn for rejoin lose.
  Host& Start(uint32_t i);
  // Ends the slot's host. Graceful: Node::Shutdown runs first (its lookups finish with what
  // they have); otherwise the host vanishes mid-operation, as in a crash.
  void Stop(uint32_t i, bool graceful);
  // Runs at the start of every Stop of a running host (the record workload notes the time).
  void SetStopHook(std::function<void(uint32_t)> hook) { stop_hook_ = std::move(hook); }
  // Joins through up to kJoinSeeds random joined honest nodes (public ones, when some are
  // behind NATs), as bootstrap/ does with its bootstrap peers. A join that ends with an empty
  // routing table (every seed gone or its datagrams lost) is retried with new seeds after a
  // back-off, as bootstrap/ does; only the very first node, with nobody to join, is joined
  // alone (a public one: a node behind a NAT waits for a public node to join through). `joined`
  // runs once the slot is joined, if the incarnation is still running.
  void Join(uint32_t i, std::function<void(uint32_t)> joined);
  // A retry scheduled by Join (EventKind::kJoinRetry).
  void OnJoinRetry(uint32_t i, uint64_t incarnation);
  // The slot's host is part of the network from now on (enters the oracle).
  void MarkJoined(uint32_t i);
  // EventKind::kJoined: the join of that incarnation finished; it is marked joined and the
  // Join caller's `joined` runs.
  void OnJoined(uint32_t i, uint64_t incarnation);
  // Every online host is joined at once (the oracle-built static network).
  void MarkAllJoined();
  // Lists every online adversary in adversaries() (they collude: each knows all the others).
  void IndexAdversaries();

  // The time of the event running on this thread: its lane's clock in a batch, else `now`.
  const transport::TimePoint& Now() const;

  void Reschedule(uint32_t i);
  void OnTimer(uint32_t i, uint64_t generation);
  void Deliver(uint32_t to, uint64_t packet, engine::TraceHash& trace);

  const network::LatencyModel& latency() const { return network_.latency(); }
  // Whether the host in `slot` sits behind a NAT (network.nat; sim/network/nat.h).
  bool BehindNat(uint32_t slot) const { return network_.nats().BehindNat(slot); }

  // Joined, online hosts of every kind; and the adversaries among them.
  const workloads::Oracle& live() const { return live_; }
  const workloads::Oracle& adversaries() const { return adversaries_; }
  // A uniformly random joined honest slot other than `except`.
  std::optional<uint32_t> RandomJoinedHonest(transport::Rng& rng,
                                             std::optional<uint32_t> except = {}) const;
  size_t joined_honest() const { return joined_honest_.size(); }
  // Host-seconds online (every kind) inside the window its SetWindow gave.
  OnlineTime& online_time() { return online_time_; }
  const OnlineTime& online_time() const { return online_time_; }
  // Joins retried because the previous attempt ended with an empty routing table.
  uint64_t join_retries() const { return retried_joins_; }

  // Node counters of all hosts that ran (live ones included when asked).
  report::NodeTotals Totals() const;
  // Who is behind a NAT, in client mode, and in the live nodes' routing tables, now.
  // (Not const: a verdict is looked at as of now, which may end a stale one.)
  report::ReachCensus Reach();
  // Summed over the lanes.
  adversaries::AdversaryCounters adversary_counters() const;
  // How many of the live honest nodes' contacts are adversaries, now.
  adversaries::TableCensus AdversaryTables() const;

 private:
  const transport::TimePoint& Clock(uint32_t i) const {
    return clocks_[engine::EventQueue::LaneOf(i)];
  }
  void StartJoin(uint32_t i);
  void AddJoinedHonest(uint32_t i);
  void RemoveJoinedHonest(uint32_t i);

  const scenario::Scenario& scenario_;
  size_t honest_slots_;
  engine::EventQueue& queue_;
  network::Network& network_;
  const transport::TimePoint& now_;
  const LaneClocks& clocks_;
  transport::Rng identity_rng_;
  transport::Rng host_rng_;
  transport::Rng join_rng_;
  transport::NullLogger logger_;
  std::array<adversaries::AdversaryCounters, engine::EventQueue::kLanes> adversary_counters_{};
  // Each lane's peer records, which its nodes' routing tables share: declared before the slots,
  // so that the hosts' tables let go of them first.
  std::array<std::unique_ptr<kademlia::routing::PeerDirectory>, engine::EventQueue::kLanes>
      peer_directories_;
  // Each lane's node counters, which its nodes share (HostContext::stats); they keep what the
  // nodes that left counted.
  std::array<kademlia::NodeStats, engine::EventQueue::kLanes> lane_stats_{};
  std::array<HostContext, engine::EventQueue::kLanes> contexts_{};  // a host gets its slot's lane's
  IdealSignatures ideal_signatures_;                                // crypto: ideal
  kademlia::store::DhtConfig dht_config_;  // the skill store's, when the scenario has records
  std::function<void(uint32_t)> stop_hook_;
  std::vector<Slot> slots_;
  workloads::Oracle live_;
  workloads::Oracle adversaries_;
  std::optional<adversaries::SybilPool> sybils_;  // sybil model
  // Joined honest slots, for uniform random choice; position_ maps slot -> index or -1.
  std::vector<uint32_t> joined_honest_;
  std::vector<int64_t> position_;
  // The skill stores' counters of the nodes that left, and how many nodes left.
  report::NodeTotals retired_;
  OnlineTime online_time_;
  uint64_t retried_joins_ = 0;
};

}  // namespace skillnode::sim::hosts

#endif  // SKILLNODE_SIM_HOSTS_POPULATION_H_
