// LaneWorker: a thread that takes lanes of every batch alongside the simulation's own thread
// (event_queue.h, Simulation).
//
// A batch holds tens of events and lasts tens of microseconds, far less than waking a
// sleeping thread takes, so each side waits for the other by spinning first. Past a short
// spin it sleeps (atomic wait) instead of yielding: when other processes share the cores, a
// thread that spins or yields takes the core its partner needs to finish, and two threads ran
// slower than one. Start and Wait are called by one thread, the simulation's; the task runs
// on the worker.
#ifndef SKILLNODE_SIM_ENGINE_LANE_WORKER_H_
#define SKILLNODE_SIM_ENGINE_LANE_WORKER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

namespace skillnode::sim::engine {

class LaneWorker {
 public:
  // Polls of the other side's counter before sleeping on it.
  static constexpr int kSpins = 4096;

  explicit LaneWorker(std::function<void()> task);
  ~LaneWorker();  // stops the thread once its current task is done
  LaneWorker(const LaneWorker&) = delete;
  LaneWorker& operator=(const LaneWorker&) = delete;

  // The task starts on the worker. The caller's writes before Start are visible to it.
  void Start();
  // Returns once the task started last has finished; its writes are then visible.
  void Wait();

 private:
  void Loop();

  std::function<void()> task_;
  std::atomic<uint64_t> started_ = 0;
  std::atomic<uint64_t> finished_ = 0;
  std::atomic<bool> worker_sleeping_ = false;  // the worker waits on started_
  std::atomic<bool> caller_sleeping_ = false;  // the caller waits on finished_
  std::atomic<bool> quit_ = false;
  std::thread thread_;
};

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_LANE_WORKER_H_
