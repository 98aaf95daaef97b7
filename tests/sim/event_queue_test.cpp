// The event queue's lanes and the worker that runs one of them.
#include "sim/engine/event_queue.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "sim/engine/lane_worker.h"

namespace skillnode::sim {
namespace {

constexpr transport::TimePoint kT = transport::kTimeZero + transport::Seconds(5);
constexpr uint32_t kLanes = engine::EventQueue::kLanes;

// The n-th slot of lane `lane`.
constexpr uint32_t SlotIn(size_t lane, uint32_t n = 0) {
  return static_cast<uint32_t>(lane) + n * kLanes;
}

std::vector<engine::Event> Drain(engine::EventHeap& heap) {
  std::vector<engine::Event> out;
  while (!heap.empty()) out.push_back(heap.Pop());
  return out;
}

TEST_CASE("host events go to their slot's lane, the rest to the control heap", "[unit]") {
  engine::EventQueue queue;
  static_assert(engine::EventQueue::LaneOf(SlotIn(1, 3)) == 1);
  queue.Push(kT, engine::EventKind::kDeliver, SlotIn(0, 2), 0);
  queue.Push(kT, engine::EventKind::kTimer, SlotIn(1, 3), 0);
  queue.Push(kT, engine::EventKind::kNodeLookup, SlotIn(1, 4), 0);
  queue.Push(kT, engine::EventKind::kOffline, SlotIn(0, 2), 0);
  queue.Push(kT, engine::EventKind::kJoined, SlotIn(1, 3), 0);
  CHECK(queue.lane(0).size() == 1);
  CHECK(queue.lane(1).size() == 2);
  CHECK(queue.control().size() == 2);
  CHECK(queue.size() == 5);
  CHECK(queue.next_host_event() == kT);
  CHECK_FALSE(queue.running_lane());
}

TEST_CASE("a running lane keeps its own host events and holds back everything else", "[unit]") {
  engine::EventQueue queue;
  {
    const engine::EventQueue::LaneScope scope(queue, 1);
    CHECK(queue.running_lane() == 1u);
    queue.Push(kT, engine::EventKind::kTimer, SlotIn(1, 1),
               0);  // its own: runs in this batch if due
    queue.Push(kT, engine::EventKind::kDeliver, SlotIn(0, 1), 0);  // lane 0's: after the batch
    queue.Push(kT, engine::EventKind::kJoined, SlotIn(1, 1), 0);   // control: after the batch
    CHECK(queue.lane(1).size() == 1);
    CHECK(queue.lane(0).empty());
    CHECK(queue.control().empty());
    CHECK(queue.size() == 3);  // the outbox counts
  }
  CHECK_FALSE(queue.running_lane());
  queue.MergeOutboxes();
  CHECK(queue.lane(0).size() == 1);
  CHECK(queue.control().size() == 1);
  // Another queue's lane running on this thread is not this queue's.
  engine::EventQueue other;
  const engine::EventQueue::LaneScope scope(other, 0);
  CHECK_FALSE(queue.running_lane());
  CHECK(other.running_lane() == 0u);
}

TEST_CASE("events due at one instant run in an order that does not depend on merging", "[unit]") {
  // The same pushes, with lane 1's outbox merged before or after lane 0's events: lane 0's
  // heap ends in the same order, decided by the scheduling side and its counter.
  auto order = [](bool lane_first) {
    engine::EventQueue queue;
    auto from_lane = [&] {
      const engine::EventQueue::LaneScope scope(queue, 1);
      queue.Push(kT, engine::EventKind::kDeliver, SlotIn(0), 100);
      queue.Push(kT, engine::EventKind::kDeliver, SlotIn(0, 1), 101);
    };
    if (lane_first) from_lane();
    queue.Push(kT, engine::EventKind::kDeliver, SlotIn(0, 2), 200);  // the control side's
    if (!lane_first) from_lane();
    {
      const engine::EventQueue::LaneScope scope(queue, 0);
      queue.Push(kT, engine::EventKind::kTimer, SlotIn(0, 3), 300);
    }
    queue.MergeOutboxes();
    std::vector<uint64_t> args;
    for (const engine::Event& e : Drain(queue.lane(0))) args.push_back(e.arg);
    return args;
  };
  const std::vector<uint64_t> expected = {300, 100, 101, 200};  // lane 0, lane 1, control
  CHECK(order(true) == expected);
  CHECK(order(false) == expected);
}

TEST_CASE("the whole queue pops in time order across lanes and control", "[unit]") {
  engine::EventQueue queue;
  queue.Push(kT + transport::Seconds(3), engine::EventKind::kDeliver, SlotIn(1), 3);
  queue.Push(kT + transport::Seconds(1), engine::EventKind::kOffline, SlotIn(0), 1);
  queue.Push(kT + transport::Seconds(2), engine::EventKind::kDeliver, SlotIn(0), 2);
  queue.Push(kT, engine::EventKind::kTimer, SlotIn(2), 0);
  std::vector<uint64_t> args;
  while (!queue.empty()) args.push_back(queue.Pop().arg);
  CHECK(args == std::vector<uint64_t>{0, 1, 2, 3});
}

TEST_CASE("a lane worker runs its task once per start and is done when Wait returns", "[unit]") {
  std::vector<int> seen;
  int value = 0;
  std::thread::id worker_thread;
  {
    engine::LaneWorker worker([&] {
      seen.push_back(value);  // the caller's write before Start is visible
      worker_thread = std::this_thread::get_id();
    });
    for (int i = 1; i <= 1000; ++i) {
      value = i;
      worker.Start();
      worker.Wait();
      REQUIRE(seen.size() == static_cast<size_t>(i));  // the task's writes are visible
      REQUIRE(seen.back() == i);
    }
    // A quiet spell long enough to put the worker to sleep, then one more batch.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    value = -1;
    worker.Start();
    worker.Wait();
  }
  CHECK(seen.size() == 1001);
  CHECK(seen.back() == -1);
  CHECK(worker_thread != std::this_thread::get_id());
}

TEST_CASE("a lane worker's caller sleeps through a task longer than its spin, and wakes",
          "[unit]") {
  // Each task outlasts the caller's spin (kSpins pauses, well under a millisecond), so Wait
  // sleeps on the counter; the worker's notify must wake it every time.
  std::atomic<int> runs = 0;
  engine::LaneWorker worker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    runs.fetch_add(1);
  });
  for (int i = 1; i <= 20; ++i) {
    worker.Start();
    worker.Wait();
    REQUIRE(runs.load() == i);
  }
}

}  // namespace
}  // namespace skillnode::sim
