// Churn: honest slots alternate between online sessions and offline periods.
//
// Sessions and downtimes are drawn from the scenario's distributions (Weibull or
// exponential). The population starts in the stationary state of that alternation: each slot
// is rolled forward from far in the past (kPrerollCycles mean cycles) to the epoch, which
// gives the right share of online slots and the right residual times, heavy tails included.
// The slots online at the epoch join one by one, join_interval_ms apart (the first alone, the
// others through a random joined node); later arrivals join through a random joined node.
// With `start: lifetime` the population starts as OverSim's LifetimeChurn starts it instead
// (scenario.h, ChurnStart).
// A departure is graceful (Node::Shutdown) with probability graceful_fraction, else a crash.
// Not thread-safe.
#ifndef SKILLNODE_SIM_HOSTS_CHURN_H_
#define SKILLNODE_SIM_HOSTS_CHURN_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine/event_queue.h"
#include "sim/hosts/distribution.h"
#include "sim/hosts/population.h"
#include "sim/scenario/scenario.h"
#include "sim/workloads/workload.h"

namespace skillnode::sim::hosts {

struct ChurnCounters {
  uint64_t arrivals = 0;         // hosts started
  uint64_t joins_completed = 0;  // of which finished joining
  uint64_t crashes = 0;
  uint64_t graceful = 0;
};

// Honest slots needed so that `live` of them are online on average.
size_t ChurnSlots(const scenario::ChurnSpec& churn, size_t live);

class Churn {
 public:
  Churn(const scenario::Scenario& scenario, Population& population, workloads::Workload& workload,
        engine::EventQueue& queue, const transport::TimePoint& now, transport::TimePoint epoch,
        uint64_t seed);

  // Rolls every honest slot to its state at the epoch and schedules the first transitions.
  // Returns when the last initially online slot starts joining.
  transport::TimePoint Begin();
  void OnOnline(uint32_t slot);
  void OnOffline(uint32_t slot, uint64_t incarnation);
  // Also runs, after the lookup workload starts, whenever a slot's join completes.
  void SetOnJoined(std::function<void(uint32_t)> on_joined) { on_joined_ = std::move(on_joined); }

  const ChurnCounters& counters() const { return counters_; }

 private:
  transport::TimePoint BeginStationary();
  transport::TimePoint BeginLifetime();
  transport::Duration SampleSession();
  transport::Duration SampleDowntime();

  const scenario::Scenario& scenario_;
  Population& population_;
  workloads::Workload& workload_;
  engine::EventQueue& queue_;
  const transport::TimePoint& now_;
  transport::TimePoint epoch_;
  transport::Rng rng_;
  DurationDistribution session_;
  DurationDistribution downtime_;
  std::vector<transport::Duration>
      first_session_;  // per slot: the residual session of an initial node
  ChurnCounters counters_;
  std::function<void(uint32_t)> on_joined_;
};

}  // namespace skillnode::sim::hosts

#endif  // SKILLNODE_SIM_HOSTS_CHURN_H_
