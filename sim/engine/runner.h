// Runner: runs every point of a ScenarioPlan, on several threads, with progress lines.
//
// Each point is an independent Simulation with its own seed, so results do not depend on
// the number of threads or on which thread ran which point: they are stored by point index.
// Points start in index order while their nodes fit in nodes_in_flight_max (a point bigger
// than that runs alone), so two 100,000-node points do not share the machine's memory.
// Progress lines go to `log` at most every kProgressInterval of wall time and at least that
// often while points run.
#ifndef SKILLNODE_SIM_ENGINE_RUNNER_H_
#define SKILLNODE_SIM_ENGINE_RUNNER_H_

#include <chrono>
#include <cstddef>
#include <ostream>
#include <vector>

#include "sim/report/summary.h"
#include "sim/scenario/scenario.h"

namespace skillnode::sim::engine {

constexpr std::chrono::seconds kProgressInterval{9};

struct RunOptions {
  unsigned threads = 2;
  // Live nodes of the points running at once; 150,000 keeps two large points (or one
  // 100,000-node point) within about 12 GB.
  size_t nodes_in_flight_max = 150'000;
  std::ostream* log = nullptr;  // progress lines; null: silent
};

std::vector<report::PointResult> RunPlan(const scenario::ScenarioPlan& plan,
                                         const RunOptions& options);

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_RUNNER_H_
