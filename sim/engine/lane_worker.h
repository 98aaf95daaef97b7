// LaneWorker: a thread that takes lanes of every batch alongside the simulation's own thread
// (event_queue.h, Simulation).
//
// A batch holds tens of events and lasts tens of microseconds, far less than waking a
// sleeping thread takes, so the worker waits for the next batch spinning, then yielding, and
// sleeps (atomic wait) only after a long quiet spell, such as a run of control events. Start
// and Wait are called by one thread, the simulation's; the task runs on the worker.
#ifndef SKILLNODE_SIM_ENGINE_LANE_WORKER_H_
#define SKILLNODE_SIM_ENGINE_LANE_WORKER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

namespace skillnode::sim::engine {

class LaneWorker {
 public:
  // Waits polled before yielding, and yields before sleeping.
  static constexpr int kSpins = 4096;
  static constexpr int kYields = 4096;

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
  std::atomic<bool> sleeping_ = false;
  std::atomic<bool> quit_ = false;
  std::thread thread_;
};

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_LANE_WORKER_H_
