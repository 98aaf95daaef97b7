// Workload: the lookups a scenario asks for, and their check against the oracle.
//
// Static networks get `lookups` lookups from uniformly random honest nodes, one every
// 1 / lookup_rate_per_s seconds, all measured. Churning networks get one lookup per live
// joined node every lookup_interval_s (the first at a random offset after its join); those
// started inside the measured window are recorded. Targets are random keys or the ids of
// random honest nodes. Every result, measured or not, goes into the trace hash. Not
// thread-safe.
#ifndef SKILLNODE_SIM_WORKLOAD_H_
#define SKILLNODE_SIM_WORKLOAD_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "kademlia/lookup.h"
#include "sim/event_queue.h"
#include "sim/lookup_log.h"
#include "sim/population.h"
#include "sim/scenario.h"
#include "sim/trace_hash.h"

namespace skillnode::sim {

class Workload {
 public:
  Workload(const Scenario& scenario, Population& population, EventQueue& queue,
           const TimePoint& now, TimePoint epoch, uint64_t seed, TraceHash& trace);

  // Lookups started in [begin, end) are measured.
  void SetWindow(TimePoint begin, TimePoint end);
  // Static: the first of the scenario's lookups at `start`, the others following at the rate.
  void ScheduleStatic(TimePoint start);
  void OnStaticLookup();
  // Churn: `slot` has joined; its periodic lookups begin.
  void StartPeriodic(uint32_t slot);
  void OnNodeLookup(uint32_t slot, uint64_t incarnation);

  // Every measured lookup has been started and has finished.
  bool Settled() const;
  // The run ends: records still pending become interrupted (asker gone) or unfinished.
  void Close();

  const std::vector<LookupRecord>& records() const { return records_; }
  // When the last measured lookup may start (for the run's end).
  TimePoint last_start() const;

 private:
  static constexpr size_t kUnmeasured = std::numeric_limits<size_t>::max();

  void Launch(uint32_t slot, bool measured);
  void Complete(size_t record, uint32_t slot, const kademlia::LookupResult& result);
  void Check(LookupRecord& record, const kademlia::NodeId& asker,
             const kademlia::LookupResult& result);
  kademlia::Key PickTarget(uint32_t asker);

  const Scenario& scenario_;
  Population& population_;
  EventQueue& queue_;
  const TimePoint& now_;
  TimePoint epoch_;
  TraceHash& trace_;
  Rng rng_;
  TimePoint window_begin_ = kTimeZero;
  TimePoint window_end_ = kTimeNever;
  TimePoint static_start_ = kTimeZero;
  uint64_t static_issued_ = 0;
  uint64_t pending_ = 0;
  std::vector<LookupRecord> records_;
};

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_WORKLOAD_H_
