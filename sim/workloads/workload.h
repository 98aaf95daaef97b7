// Workload: the lookups a scenario asks for, and their check against the oracle.
//
// Static networks get `lookups` lookups from uniformly random honest nodes, one every
// 1 / lookup_rate_per_s seconds, all measured. Churning networks get one lookup per live
// joined node every lookup_interval_s (the first at a random offset after its join); those
// started inside the measured window are recorded. Targets are random keys or the ids of
// random honest nodes. Every result, measured or not, goes into the trace hash. Not
// thread-safe.
#ifndef SKILLNODE_SIM_WORKLOADS_WORKLOAD_H_
#define SKILLNODE_SIM_WORKLOADS_WORKLOAD_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "kademlia/lookup/lookup.h"
#include "sim/engine/event_queue.h"
#include "sim/engine/trace_hash.h"
#include "sim/hosts/population.h"
#include "sim/scenario/scenario.h"
#include "sim/workloads/lookup_log.h"

namespace skillnode::sim::workloads {

class Workload {
 public:
  using LaneTraces = std::array<engine::TraceHash, engine::EventQueue::kLanes>;

  // A lookup's result goes into the trace of its asker's lane: lookups finish in lanes.
  Workload(const scenario::Scenario& scenario, hosts::Population& population,
           engine::EventQueue& queue, const transport::TimePoint& now, transport::TimePoint epoch,
           uint64_t seed, LaneTraces& traces);

  // Lookups started in [begin, end) are measured.
  void SetWindow(transport::TimePoint begin, transport::TimePoint end);
  // Static: the first of the scenario's lookups at `start`, the others following at the rate.
  void ScheduleStatic(transport::TimePoint start);
  void OnStaticLookup();
  // Churn: `slot` has joined; its periodic lookups begin.
  void StartPeriodic(uint32_t slot);
  void OnNodeLookup(uint32_t slot, uint64_t incarnation);

  // Network::ArrivalObserver: a datagram from `from` will arrive at `to` at `arrival`
  // (kTimeNever: it is lost). Notes a measured lookup's requests to its responsible node, and
  // the first one's arrival. Runs in the sender's lane.
  void OnArrival(transport::TimePoint arrival, uint32_t from, uint32_t to,
                 std::span<const uint8_t> bytes);
  // A datagram from `from` is delivered to `to` now. Notes the first answer of a measured
  // lookup's responsible node reaching its asker (Heep's latency). Runs in `to`'s lane.
  void OnDelivery(uint32_t to, uint32_t from, std::span<const uint8_t> bytes);

  // Between batches: looks up, for each measured lookup that missed since the last call,
  // whether its responsible node left and whether a live routing table holds it.
  void AnalyseFailures();

  // Every measured lookup has been started and has finished.
  bool Settled() const;
  // The run ends: records still pending become interrupted (asker gone) or unfinished.
  void Close();

  // Every measured lookup by start time (then asker), once Close has run.
  const std::vector<LookupRecord>& records() const { return records_; }
  // The records moved out, once the run's summary has read them: records() is empty after.
  std::vector<LookupRecord> TakeRecords() { return std::exchange(records_, {}); }
  // Measured lookups started so far.
  size_t measured() const;
  // When the first measured lookup starts (static networks: once scheduled).
  transport::TimePoint first_start() const {
    return scenario_.churn.enabled ? window_begin_ : static_start_;
  }
  // When the last measured lookup may start (for the run's end).
  transport::TimePoint last_start() const;

 private:
  static constexpr size_t kUnmeasured = std::numeric_limits<size_t>::max();

  // A record's place: the side that started the lookup, above kSideShift, and its index there.
  static constexpr int kSideShift = 48;

  // A measured lookup waiting for its first request to reach its responsible node.
  struct Watch {
    size_t record = 0;
    uint32_t responsible = 0;
    kademlia::Key target;
    std::vector<uint64_t> txids;  // of the requests sent to the responsible node
  };

  void Launch(uint32_t slot, bool measured);
  void Complete(size_t record, uint32_t slot, const kademlia::LookupResult& result);
  LookupRecord& RecordAt(size_t index);
  // Whether the routing table of a live node other than `responsible` holds `id`.
  bool HeldByATable(uint32_t responsible, const kademlia::NodeId& id) const;
  void Unwatch(uint32_t asker, size_t index);
  void Check(LookupRecord& record, const kademlia::NodeId& asker,
             const kademlia::LookupResult& result);
  kademlia::Key PickTarget(uint32_t asker, transport::Rng& rng);

  const scenario::Scenario& scenario_;
  hosts::Population& population_;
  engine::EventQueue& queue_;
  const transport::TimePoint& now_;
  transport::TimePoint epoch_;
  LaneTraces& traces_;
  transport::Rng rng_;                     // the control side's draws
  std::vector<transport::Rng> lane_rngs_;  // the draws of lookups started in each lane
  transport::TimePoint window_begin_ = transport::kTimeZero;
  transport::TimePoint window_end_ = transport::kTimeNever;
  transport::TimePoint static_start_ = transport::kTimeZero;
  uint64_t static_issued_ = 0;
  std::atomic<uint64_t> pending_ = 0;  // lookups finish in lanes, side by side
  // Periodic lookups start in their asker's lane, static ones on the control side: each side
  // keeps the records of the lookups it started until Close merges them into records_.
  std::array<std::vector<LookupRecord>, engine::EventQueue::kLanes + 1> started_;
  std::vector<LookupRecord> records_;
  // Per side, measured lookups that missed and wait for AnalyseFailures.
  std::array<std::vector<size_t>, engine::EventQueue::kLanes + 1> missed_;
  // Per asker slot, its measured lookups still watched (until kLateAnswerWindow after they
  // started, for late answers); changed only in the slot's lane (or
  // on the control side between batches).
  std::vector<std::vector<Watch>> watching_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORKLOAD_H_
