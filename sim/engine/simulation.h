// Simulation: one scenario point, run from its seed to its summary.
//
// It owns the virtual clock, the event queue, the network, the population of hosts, the
// workload and the churn driver. It runs control events one at a time and host events in
// batches, each lane's in (time, sequence) order, the lanes spread over the threads asked for
// (event_queue.h), until the workload is settled or the scenario's end. The clock only moves
// when an event runs; real time is read only to report wall_seconds and to pace progress
// lines, never to decide anything, so a scenario and seed give the same trace hash on any
// machine, on one thread or two, and with any number of threads running other points. Run is
// called from one thread.
#ifndef SKILLNODE_SIM_ENGINE_SIMULATION_H_
#define SKILLNODE_SIM_ENGINE_SIMULATION_H_

#include <functional>
#include <memory>

#include "sim/report/summary.h"
#include "sim/scenario/scenario.h"

namespace skillnode::sim::engine {

struct ProgressInfo {
  const char* phase = "";  // "build" or "run"
  double done = 0;         // build: nodes; run: simulated seconds
  double total = 0;
  size_t lookups = 0;  // measured so far
};
using ProgressFn = std::function<void(const ProgressInfo&)>;

class Simulation {
 public:
  // The scenario must outlive the simulation. `threads` (1 to EventQueue::kLanes) run the
  // event queue's lanes; the run is the same on any number.
  explicit Simulation(const scenario::Scenario& scenario, ProgressFn progress = {},
                      unsigned threads = 1);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs to the end; call once.
  report::PointResult Run();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_SIMULATION_H_
