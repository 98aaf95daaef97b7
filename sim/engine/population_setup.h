// PopulationSetup: brings a simulation's hosts up as its scenario asks, before the first event
// runs, and schedules what follows from that: the oracle build or the joins, the scripted
// adversaries and their announcements, the measurement windows of lookups, records and
// traffic, and the run's end. It also runs the two kinds of event it schedules for the
// population, kJoin and kAnnounce, which Simulation::State dispatches to it.
//
// It owns nothing: the scenario, queue, network, population and workloads belong to
// Simulation::State and must outlive it. Private to sim/engine/; called from one thread.
#ifndef SKILLNODE_SIM_ENGINE_POPULATION_SETUP_H_
#define SKILLNODE_SIM_ENGINE_POPULATION_SETUP_H_

#include <cstddef>
#include <cstdint>

#include "sim/engine/event_queue.h"
#include "sim/engine/simulation.h"
#include "sim/hosts/churn.h"
#include "sim/hosts/population.h"
#include "sim/network/network.h"
#include "sim/scenario/scenario.h"
#include "sim/workloads/record_workload.h"
#include "sim/workloads/word_workload.h"
#include "sim/workloads/workload.h"
#include "transport/clock.h"
#include "transport/rng.h"

namespace skillnode::sim::engine {

// A static network's first lookup, after the oracle build.
inline constexpr transport::Duration kStaticStartDelay = transport::Seconds(1);
// An eclipse adversary announces itself this long after the joins it needs have started.
inline constexpr transport::Duration kAnnounceDelay = transport::Seconds(1);
// Static networks with records: every node publishes at the first lookup; gets are measured
// from this long after, once the first publishes have finished.
inline constexpr transport::Duration kStaticPublishSettle = transport::Seconds(30);
// Oracle build: a progress line for every this many identities made.
inline constexpr uint32_t kIdentitiesPerProgress = 1024;

class PopulationSetup {
 public:
  // What a setup works on. Slots from `honest_slots` on are the adversaries'; `churn` and
  // `records` and `words` are null when the scenario has none.
  struct Parts {
    const scenario::Scenario& scenario;
    size_t honest_slots;
    EventQueue& queue;
    network::Network& network;
    hosts::Population& population;
    workloads::Workload& workload;
    hosts::Churn* churn = nullptr;
    workloads::RecordWorkload* records = nullptr;
    workloads::WordWorkload* words = nullptr;
  };

  explicit PopulationSetup(const Parts& parts);
  PopulationSetup(const PopulationSetup&) = delete;
  PopulationSetup& operator=(const PopulationSetup&) = delete;

  // Builds the network from the oracle (its tables drawn from `rng`, as of `now`) or
  // schedules its joins, starts the scripted adversaries, sets the measurement windows and
  // schedules kStop at the run's end, which it returns. Call once, before any event runs.
  // `progress` (may be empty) hears of the oracle build.
  transport::TimePoint Run(transport::Rng& rng, transport::TimePoint now,
                           const ProgressFn& progress);

  // kJoin: the slot starts if it is offline, then joins (an adversary without a node only
  // counts as joined).
  void OnJoinEvent(uint32_t slot);
  // kAnnounce: an adversary still online tells the k honest nodes closest to it about itself.
  void Announce(uint32_t slot);

 private:
  enum class Phase { kBefore, kRan };

  void BuildFromOracle(transport::Rng& rng, transport::TimePoint now, const ProgressFn& progress);
  // Join build: the scripted adversaries start and count as joined at once.
  void StartScriptedAdversaries();
  // Schedules a join for every slot that runs a node and is not churning, `join_interval_ms`
  // apart from `first`; returns the time of the last one.
  transport::TimePoint ScheduleJoins(transport::TimePoint first);
  // Static networks with words: every node publishes its skills at `publish`; queries are
  // measured from query_start_s after it.
  void StartStaticWords(transport::TimePoint publish);
  // Schedules kAnnounce for every scripted adversary at `at`.
  void ScheduleAnnounces(transport::TimePoint at);
  void StartStaticRecords(transport::TimePoint publish);
  void SetTrafficWindow(transport::TimePoint begin, transport::TimePoint end);

  const scenario::Scenario& scenario_;
  const size_t honest_slots_;
  EventQueue& queue_;
  network::Network& network_;
  hosts::Population& population_;
  workloads::Workload& workload_;
  hosts::Churn* const churn_;
  workloads::RecordWorkload* const records_;
  workloads::WordWorkload* const words_;
  Phase phase_ = Phase::kBefore;
};

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_POPULATION_SETUP_H_
