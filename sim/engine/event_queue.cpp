#include "sim/engine/event_queue.h"

#include <algorithm>
#include <cassert>

namespace skillnode::sim::engine {
namespace {

// The scheduling side sits above the counter, so sequences of different sides never collide.
constexpr int kSideShift = 56;

}  // namespace

EventQueue::LaneScope::LaneScope(EventQueue& queue, size_t lane) {
  assert(running_.queue == nullptr && lane < kLanes);
  running_ = Running{&queue, lane};
}

EventQueue::LaneScope::~LaneScope() { running_ = Running{}; }

void EventQueue::Push(transport::TimePoint at, EventKind kind, uint32_t slot, uint64_t arg) {
  const std::optional<size_t> lane = running_lane();
  const size_t side = lane.value_or(kLanes);
  const uint64_t sequence = (uint64_t{side} << kSideShift) | scheduled_[side]++;
  const Event event{at, sequence, kind, slot, arg};
  if (!lane) return Route(event);
  if (IsHostEvent(kind) && LaneOf(slot) == *lane) return lanes_[*lane].heap.Push(event);
  lanes_[*lane].outbox.push_back(event);
}

void EventQueue::Route(const Event& event) {
  if (IsHostEvent(event.kind)) {
    lanes_[LaneOf(event.slot)].heap.Push(event);
  } else {
    control_.Push(event);
  }
}

transport::TimePoint EventQueue::next_host_event() const {
  transport::TimePoint next = transport::kTimeNever;
  for (const Lane& lane : lanes_) next = std::min(next, lane.heap.next());
  return next;
}

void EventQueue::MergeOutboxes() {
  for (Lane& lane : lanes_) {
    for (const Event& event : lane.outbox) Route(event);
    lane.outbox.clear();
  }
}

bool EventQueue::empty() const { return size() == 0; }

size_t EventQueue::size() const {
  size_t n = control_.size();
  for (const Lane& lane : lanes_) n += lane.heap.size() + lane.outbox.size();
  return n;
}

Event EventQueue::Pop() {
  MergeOutboxes();
  EventHeap* earliest = &control_;
  for (Lane& lane : lanes_) {
    if (lane.heap.empty()) continue;
    const Event& e = lane.heap.top();
    if (earliest->empty() || e.at < earliest->top().at ||
        (e.at == earliest->top().at && e.sequence < earliest->top().sequence)) {
      earliest = &lane.heap;
    }
  }
  return earliest->Pop();
}

}  // namespace skillnode::sim::engine
