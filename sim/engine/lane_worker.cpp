#include "sim/engine/lane_worker.h"

namespace skillnode::sim::engine {
namespace {

inline void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

LaneWorker::LaneWorker(std::function<void()> task)
    : task_(std::move(task)), thread_([this] { Loop(); }) {}

LaneWorker::~LaneWorker() {
  quit_.store(true);
  started_.fetch_add(1);  // wakes the worker, which sees quit_ and returns
  started_.notify_one();
  thread_.join();
}

// Each side publishes its counter, then reads whether the other sleeps; the sleeper sets its
// flag, then waits on the counter, which returns at once if it has changed. Both in sequential
// consistency, so either the waker notifies or the sleeper sees the new value.
void LaneWorker::Start() {
  started_.fetch_add(1);
  if (worker_sleeping_.load()) started_.notify_one();
}

void LaneWorker::Wait() {
  const uint64_t target = started_.load(std::memory_order_relaxed);
  for (int spins = 0; spins < kSpins; ++spins) {
    if (finished_.load(std::memory_order_acquire) == target) return;
    Pause();
  }
  for (uint64_t seen = finished_.load(); seen != target; seen = finished_.load()) {
    caller_sleeping_.store(true);
    finished_.wait(seen);
    caller_sleeping_.store(false);
  }
}

void LaneWorker::Loop() {
  uint64_t seen = 0;
  while (true) {
    for (int spins = 0; started_.load(std::memory_order_acquire) == seen; ++spins) {
      if (spins < kSpins) {
        Pause();
      } else {
        worker_sleeping_.store(true);
        started_.wait(seen);
        worker_sleeping_.store(false);
      }
    }
    seen = started_.load();
    if (quit_.load()) return;
    task_();
    finished_.store(seen);
    if (caller_sleeping_.load()) finished_.notify_one();
  }
}

}  // namespace skillnode::sim::engine
