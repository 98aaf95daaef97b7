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

void LaneWorker::Start() {
  started_.fetch_add(1);
  if (sleeping_.load()) started_.notify_one();
}

void LaneWorker::Wait() {
  const uint64_t target = started_.load(std::memory_order_relaxed);
  for (int spins = 0; finished_.load(std::memory_order_acquire) != target; ++spins) {
    if (spins < kSpins) {
      Pause();
    } else {
      std::this_thread::yield();
    }
  }
}

void LaneWorker::Loop() {
  uint64_t seen = 0;
  while (true) {
    for (int spins = 0; started_.load(std::memory_order_acquire) == seen; ++spins) {
      if (spins < kSpins) {
        Pause();
      } else if (spins < kSpins + kYields) {
        std::this_thread::yield();
      } else {
        // Start reads sleeping_ after publishing, so either it notifies or wait sees the change.
        sleeping_.store(true);
        started_.wait(seen);
        sleeping_.store(false);
      }
    }
    seen = started_.load(std::memory_order_acquire);
    if (quit_.load()) return;
    task_();
    finished_.store(seen, std::memory_order_release);
  }
}

}  // namespace skillnode::sim::engine
