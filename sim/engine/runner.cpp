#include "sim/engine/runner.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "sim/engine/heap.h"
#include "sim/engine/simulation.h"

namespace skillnode::sim::engine {
namespace {

using Clock = std::chrono::steady_clock;

// Shared by the worker threads: which point runs next, the memory budget, and the latest
// progress of every running point for the next progress line.
class Scheduler {
 public:
  Scheduler(const scenario::ScenarioPlan& plan, const RunOptions& options)
      : plan_(plan), options_(options), started_(Clock::now()), last_line_(started_) {}

  // The next point to run, waiting while the memory budget is full; -1 when none is left.
  long Take() {
    std::unique_lock lock(mutex_);
    while (true) {
      if (next_ >= plan_.points.size()) return -1;
      const size_t nodes = plan_.points[next_].scenario.nodes;
      if (in_flight_ == 0 || in_flight_ + nodes <= options_.nodes_in_flight_max) {
        in_flight_ += nodes;
        running_[next_] = "starting";
        return static_cast<long>(next_++);
      }
      freed_.wait(lock);
    }
  }

  void Done(size_t index) {
    std::lock_guard lock(mutex_);
    in_flight_ -= plan_.points[index].scenario.nodes;
    running_.erase(index);
    ++done_;
    freed_.notify_all();
  }

  void Progress(size_t index, const ProgressInfo& info) {
    std::lock_guard lock(mutex_);
    char text[160];
    std::snprintf(text, sizeof text, "%s %.0f/%.0f%s, %zu lookups", info.phase, info.done,
                  info.total, std::string(info.phase) == "run" ? " s simulated" : "", info.lookups);
    running_[index] = text;
    const auto now = Clock::now();
    if (options_.log == nullptr || now - last_line_ < kProgressInterval) return;
    last_line_ = now;
    const auto wall = std::chrono::duration_cast<std::chrono::seconds>(now - started_).count();
    std::string line = "skillsim: " + std::to_string(wall) + " s: " + std::to_string(done_) + "/" +
                       std::to_string(plan_.points.size()) + " points done";
    for (const auto& [point, state] : running_) {
      line += "; point " + std::to_string(point);
      for (const scenario::SweptValue& v : plan_.points[point].swept)
        line += " " + v.path + "=" + v.value;
      line += ": " + state;
    }
    *options_.log << line << std::endl;
  }

 private:
  const scenario::ScenarioPlan& plan_;
  const RunOptions& options_;
  std::mutex mutex_;
  std::condition_variable freed_;
  size_t next_ = 0;
  size_t done_ = 0;
  size_t in_flight_ = 0;
  std::map<size_t, std::string> running_;
  Clock::time_point started_;
  Clock::time_point last_line_;
};

}  // namespace

// How many points can ever run at once: the most of the smallest points whose nodes fit in
// nodes_in_flight_max together (one at least).
unsigned PointsAtOnce(const scenario::ScenarioPlan& plan, size_t nodes_in_flight_max) {
  std::vector<size_t> sizes;
  sizes.reserve(plan.points.size());
  for (const scenario::ScenarioPoint& point : plan.points) sizes.push_back(point.scenario.nodes);
  std::sort(sizes.begin(), sizes.end());
  unsigned fit = 0;
  size_t nodes = 0;
  for (const size_t size : sizes) {
    if (nodes + size > nodes_in_flight_max) break;
    nodes += size;
    ++fit;
  }
  return std::max(1u, fit);
}

std::vector<report::PointResult> RunPlan(const scenario::ScenarioPlan& plan,
                                         const RunOptions& options) {
  std::vector<report::PointResult> results(plan.points.size());
  Scheduler scheduler(plan, options);
  const unsigned threads =
      std::max(1u, std::min({options.threads, static_cast<unsigned>(plan.points.size()),
                             PointsAtOnce(plan, options.nodes_in_flight_max)}));
  // Threads no point can use go to the points' event queue lanes: one point on two threads,
  // and a sweep of 100,000-node points (which run one at a time) on all of them.
  const unsigned lane_threads = std::max(1u, options.threads / threads);
  auto work = [&] {
    for (long index = scheduler.Take(); index >= 0; index = scheduler.Take()) {
      const auto i = static_cast<size_t>(index);
      const scenario::ScenarioPoint& point = plan.points[i];
      {
        Simulation simulation(
            point.scenario,
            [&scheduler, i](const ProgressInfo& info) { scheduler.Progress(i, info); },
            lane_threads);
        results[i] = simulation.Run();
        results[i].swept = point.swept;
      }
      // The point's freed heap is released before the next point starts (glibc: back to the
      // system; mimalloc: its empty segments, for any thread to reuse). An allocator that kept
      // it for this thread would add one point's peak to the next one's on another thread (a
      // 100,000-node sweep peaked at 7.1 GB for 2.4 and 5.2 GB points).
      ReleaseFreeMemory();
      scheduler.Done(i);
    }
  };
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) workers.emplace_back(work);
  work();
  for (std::thread& worker : workers) worker.join();
  return results;
}

}  // namespace skillnode::sim::engine
