// Simulation::State: one running scenario point — its clock, event queue, network, hosts and
// workloads — and the event loop's dispatch over them (simulation.cpp). Bringing the hosts up
// and scheduling what the scenario asks for is PopulationSetup's (population_setup.h).
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
#include "sim/engine/population_setup.h"
#include "sim/engine/sim_time.h"
#include "sim/engine/simulation.h"
#include "sim/engine/trace_hash.h"
#include "sim/hosts/builder.h"
#include "sim/hosts/churn.h"
#include "sim/hosts/population.h"
#include "sim/network/addressing.h"
#include "sim/network/latency.h"
#include "sim/network/network.h"
#include "sim/workloads/record_workload.h"
#include "sim/workloads/word_workload.h"
#include "sim/workloads/workload.h"

namespace skillnode::sim::engine {

// Events between progress callbacks (a cheap counter test in the hot loop).
inline constexpr uint64_t kProgressEveryEvents = 4096;

struct Simulation::State {
  State(const scenario::Scenario& s, ProgressFn p, unsigned threads)
      : scenario(s),
        progress(std::move(p)),
        lane_threads(std::clamp<unsigned>(threads, 1, EventQueue::kLanes)),
        rng(s.seed),
        latency(s.network.latency),
        adversary_slots(static_cast<size_t>(
            std::llround(s.adversaries.fraction * static_cast<double>(s.nodes)))),
        honest_live(s.nodes - adversary_slots),
        honest_slots(s.churn.enabled ? hosts::ChurnSlots(s.churn, honest_live) : honest_live) {
    latency.Place(honest_slots + adversary_slots, rng);
    clocks.fill(now);
    network.emplace(s.network, latency, queue, kEpoch, rng.Next64());
    lookahead = network->min_delay();
    population.emplace(s, honest_slots, adversary_slots, queue, *network, now, clocks,
                       rng.Next64());
    workload.emplace(s, *population, queue, now, kEpoch, rng.Next64(), lane_traces);
    network->SetArrivalObserver([this](transport::TimePoint arrival, uint32_t from, uint32_t to,
                                       std::span<const uint8_t> bytes) {
      workload->OnArrival(arrival, from, to, bytes);
      if (words) words->OnSent(from, bytes);
    });
    const uint64_t churn_seed = rng.Next64();
    if (s.churn.enabled) {
      churn.emplace(s, *population, *workload, queue, now, kEpoch, churn_seed);
    }
    if (s.records.enabled) {
      // Drawn after the others, so that scenarios without records keep their trace hashes.
      records.emplace(s, *population, queue, now, kEpoch, rng.Next64(), lane_traces);
      if (s.words.enabled) {
        // Drawn after the records' seed, so that scenarios without words keep their hashes.
        words.emplace(s, *population, *network, queue, now, kEpoch, rng.Next64(), lane_traces);
      }
      population->SetStopHook([this](uint32_t slot) {
        records->OnStopped(slot);
        if (words) words->OnStopped(slot);
      });
      if (churn) {
        churn->SetOnJoined([this](uint32_t slot) {
          records->OnJoined(slot);
          if (words) words->OnJoined(slot);
        });
      }
    }
    setup.emplace(PopulationSetup::Parts{s, honest_slots, queue, *network, *population, *workload,
                                         churn ? &*churn : nullptr, records ? &*records : nullptr,
                                         words ? &*words : nullptr});
  }

  bool Settled() const;
  void Dispatch(const Event& event);
  void RunBatch(transport::TimePoint horizon);
  void RunLane(size_t lane, transport::TimePoint horizon);
  void TakeLanes();
  uint64_t TraceValue() const;
  report::RunSummary Summarize(double wall_seconds);

  const scenario::Scenario& scenario;
  ProgressFn progress;
  unsigned lane_threads;
  transport::Rng rng;
  network::LatencyModel latency;
  size_t adversary_slots;
  size_t honest_live;
  size_t honest_slots;
  transport::TimePoint now = kEpoch;
  hosts::Population::LaneClocks clocks;
  // How far past the earliest host event a batch runs: the network's shortest delay.
  transport::Duration lookahead{1};
  EventQueue queue;
  TraceHash trace;  // the control side's; each lane keeps its own
  workloads::Workload::LaneTraces lane_traces;
  std::array<uint64_t, EventQueue::kLanes> lane_events{};
  // The running batch: its horizon, and the next lane no thread has taken yet.
  transport::TimePoint batch_horizon = transport::kTimeNever;
  std::atomic<size_t> next_lane = 0;
  // The threads beyond the simulation's own, which take lanes too (lane_threads - 1).
  std::vector<std::unique_ptr<LaneWorker>> workers;
  std::optional<network::Network> network;
  std::optional<hosts::Population> population;
  std::optional<workloads::Workload> workload;
  std::optional<hosts::Churn> churn;
  std::optional<workloads::RecordWorkload> records;
  std::optional<workloads::WordWorkload> words;  // only with records (scenario_parser.cpp)
  std::optional<PopulationSetup> setup;          // over the parts above
  uint64_t events = 0;
  bool stopped = false;
};

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_SIMULATION_STATE_H_
