// Simulation::State: one running scenario point — its clock, event queue, network, hosts and
// workloads — shared by simulation.cpp (the event loop and the summary) and
// simulation_setup.cpp (building the network and scheduling what the scenario asks for).
// Private to sim/engine/.
#ifndef SKILLNODE_SIM_ENGINE_SIMULATION_STATE_H_
#define SKILLNODE_SIM_ENGINE_SIMULATION_STATE_H_

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <optional>

#include "sim/engine/event_queue.h"
#include "sim/engine/heap.h"
#include "sim/engine/lane_worker.h"
#include "sim/engine/simulation.h"
#include "sim/engine/trace_hash.h"
#include "sim/hosts/builder.h"
#include "sim/hosts/churn.h"
#include "sim/hosts/population.h"
#include "sim/network/addressing.h"
#include "sim/network/latency.h"
#include "sim/network/network.h"
#include "sim/workloads/record_workload.h"
#include "sim/workloads/workload.h"

namespace skillnode::sim {

// Simulated time starts here rather than at zero, where a TimePoint means "never seen".
inline constexpr TimePoint kEpoch = kTimeZero + Seconds(1);
// A static network's first lookup, after the oracle build.
inline constexpr Duration kStaticStartDelay = Seconds(1);
// An eclipse adversary announces itself this long after the joins it needs have started.
inline constexpr Duration kAnnounceDelay = Seconds(1);
// Static networks with records: every node publishes at the first lookup; gets are measured
// from this long after, once the first publishes have finished.
inline constexpr Duration kStaticPublishSettle = Seconds(30);
// Events between progress callbacks (a cheap counter test in the hot loop).
inline constexpr uint64_t kProgressEveryEvents = 4096;

inline Duration SecondsOf(double s) {
  return Duration(static_cast<int64_t>(std::llround(s * 1e6)));
}
inline double SecondsSince(TimePoint t) { return ToMillis(t - kEpoch) / 1000; }

struct Simulation::State {
  State(const Scenario& s, ProgressFn p, unsigned threads)
      : scenario(s),
        progress(std::move(p)),
        // The record workload's callbacks share its state (record_workload.h).
        lane_threads(s.records.enabled ? 1 : std::clamp<unsigned>(threads, 1, EventQueue::kLanes)),
        rng(s.seed),
        latency(s.network.latency),
        adversary_slots(static_cast<size_t>(
            std::llround(s.adversaries.fraction * static_cast<double>(s.nodes)))),
        honest_live(s.nodes - adversary_slots),
        honest_slots(s.churn.enabled ? ChurnSlots(s.churn, honest_live) : honest_live) {
    latency.Place(honest_slots + adversary_slots, rng);
    clocks.fill(now);
    network.emplace(s.network, latency, queue, kEpoch, rng.Next64());
    lookahead = network->min_delay();
    population.emplace(s, honest_slots, adversary_slots, queue, *network, now, clocks,
                       rng.Next64());
    workload.emplace(s, *population, queue, now, kEpoch, rng.Next64(), lane_traces);
    network->SetArrivalObserver(
        [this](TimePoint arrival, uint32_t from, uint32_t to, std::span<const uint8_t> bytes) {
          workload->OnArrival(arrival, from, to, bytes);
        });
    const uint64_t churn_seed = rng.Next64();
    if (s.churn.enabled) {
      churn.emplace(s, *population, *workload, queue, now, kEpoch, churn_seed);
    }
    if (s.records.enabled) {
      // Drawn after the others, so that scenarios without records keep their trace hashes.
      records.emplace(s, *population, queue, now, kEpoch, rng.Next64(), trace);
      population->SetStopHook([this](uint32_t slot) { records->OnStopped(slot); });
      if (churn) churn->SetOnJoined([this](uint32_t slot) { records->OnJoined(slot); });
    }
  }

  void BuildFromOracle();
  TimePoint ScheduleJoins(TimePoint first);
  void StartAdversaries();
  void Announce(uint32_t slot);
  void OnJoinEvent(uint32_t slot);
  TimePoint Setup();
  void StartStaticRecords(TimePoint publish);
  void SetTrafficWindow(TimePoint begin, TimePoint end);
  bool Settled() const;
  void Dispatch(const Event& event);
  void RunBatch(TimePoint horizon);
  void RunLane(size_t lane, TimePoint horizon);
  void TakeLanes();
  uint64_t TraceValue() const;
  RunSummary Summarize(double wall_seconds) const;

  const Scenario& scenario;
  ProgressFn progress;
  unsigned lane_threads;
  Rng rng;
  LatencyModel latency;
  size_t adversary_slots;
  size_t honest_live;
  size_t honest_slots;
  TimePoint now = kEpoch;
  Population::LaneClocks clocks;
  // How far past the earliest host event a batch runs: the network's shortest delay.
  Duration lookahead{1};
  EventQueue queue;
  TraceHash trace;  // the control side's; each lane keeps its own
  Workload::LaneTraces lane_traces;
  std::array<uint64_t, EventQueue::kLanes> lane_events{};
  // The running batch: its horizon, and the next lane no thread has taken yet.
  TimePoint batch_horizon = kTimeNever;
  std::atomic<size_t> next_lane = 0;
  // The threads beyond the simulation's own, which take lanes too (lane_threads - 1).
  std::vector<std::unique_ptr<LaneWorker>> workers;
  std::optional<Network> network;
  std::optional<Population> population;
  std::optional<Workload> workload;
  std::optional<Churn> churn;
  std::optional<RecordWorkload> records;
  uint64_t events = 0;
  bool stopped = false;
};

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_ENGINE_SIMULATION_STATE_H_
