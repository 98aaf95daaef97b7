// EventQueue: the simulator's agenda, split into lanes that can run side by side.
//
// Every datagram delivery, node timer, lookup, churn transition and phase change is an Event.
// Host events (deliveries, timers, a node's periodic lookups) wait in the lane of the slot
// they are for: slot s belongs to lane s % kLanes. Everything else (joins, churn, the static
// workload's lookups, phase changes) is a control event, in one control heap. Simulation runs
// control events one at a time and host events in batches: every lane runs its events due
// before a horizon (no later than the next control event, and less than the network's
// shortest one-way delay past the earliest host event), the lanes on threads of their own.
// What a lane's event schedules for its own lane joins that lane's heap at once; everything
// else goes to the lane's outbox, which MergeOutboxes hands on after the batch. A datagram
// sent in a batch arrives no earlier than the horizon, so no lane is handed an event it has
// already run past.
//
// Events are ordered by (time, sequence). The sequence is the scheduling side's own counter
// (a lane, or the control side), tagged with that side, so events due at the same instant run
// in an order that depends on the scenario and seed only, never on how the lanes' threads
// interleave (docs/architecture.md "Code rules": (deadline, sequence) ordering). A lane's heap is
// used by one thread at a time: its own during a batch, the simulation's between batches.
#ifndef SKILLNODE_SIM_ENGINE_EVENT_QUEUE_H_
#define SKILLNODE_SIM_ENGINE_EVENT_QUEUE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <queue>
#include <vector>

#include "transport/clock.h"

namespace skillnode::sim::engine {

enum class EventKind : uint8_t {
  kDeliver,         // arg: packet id
  kTimer,           // arg: the slot's timer generation when scheduled
  kStaticLookup,    // a lookup from a random honest node (static workload)
  kNodeLookup,      // arg: incarnation; the slot's periodic lookup (churn workload)
  kJoin,            // a slot of a join-built static network joins
  kJoinRetry,       // arg: incarnation; a join that found nobody tries again
  kJoined,          // arg: incarnation; a slot's join finished: it enters the oracle
  kOnline,          // a churning slot comes online
  kOffline,         // arg: incarnation; a churning slot's session ends
  kAnnounce,        // an eclipse adversary makes itself known
  kPublishAll,      // static networks with records: every joined honest node publishes
  kRecordGet,       // arg: incarnation; the slot's periodic record get
  kWordPublishAll,  // static networks with words: every joined honest node publishes its skills
  kWordQuery,       // arg: incarnation; the slot's periodic word query
  kStop,            // the end of the run
};

// Deliveries, timers and a node's periodic lookups run in their slot's lane; every other kind
// is a control event.
constexpr bool IsHostEvent(EventKind kind) {
  return kind == EventKind::kDeliver || kind == EventKind::kTimer || kind == EventKind::kNodeLookup;
}

struct Event {
  transport::TimePoint at;
  uint64_t sequence = 0;
  EventKind kind = EventKind::kStop;
  uint32_t slot = 0;
  uint64_t arg = 0;
};

// A binary heap of events, earliest (time, sequence) first.
class EventHeap {
 public:
  void Push(const Event& event) { heap_.push(event); }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.top(); }
  transport::TimePoint next() const {
    return heap_.empty() ? transport::kTimeNever : heap_.top().at;
  }
  Event Pop() {
    Event event = heap_.top();
    heap_.pop();
    return event;
  }

 private:
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.at != b.at ? a.at > b.at : a.sequence > b.sequence;
    }
  };

  std::priority_queue<Event, std::vector<Event>, Later> heap_;
};

class EventQueue {
 public:
  // The number of lanes is fixed, whatever the number of threads: a run's events, and so its
  // trace hash, are the same on one thread or on kLanes.
  static constexpr size_t kLanes = 16;
  static constexpr size_t LaneOf(uint32_t slot) { return slot % kLanes; }

  // While a lane runs on this thread, the events it schedules go to its heap or its outbox.
  class LaneScope {
   public:
    LaneScope(EventQueue& queue, size_t lane);
    ~LaneScope();
    LaneScope(const LaneScope&) = delete;
    LaneScope& operator=(const LaneScope&) = delete;
  };

  void Push(transport::TimePoint at, EventKind kind, uint32_t slot, uint64_t arg);

  // The lane running on this thread, if this queue's batch is running here.
  std::optional<size_t> running_lane() const {
    if (running_.queue != this) return std::nullopt;
    return running_.lane;
  }

  EventHeap& control() { return control_; }
  EventHeap& lane(size_t i) { return lanes_[i].heap; }
  // The earliest host event's time, or kTimeNever.
  transport::TimePoint next_host_event() const;
  // After a batch: every lane's outbox, in lane order, into the heaps.
  void MergeOutboxes();

  // The whole agenda as one queue, for tests: the earliest event of any heap.
  bool empty() const;
  size_t size() const;
  Event Pop();

 private:
  // The lane this thread is running, and whose queue it belongs to. Read on every send and
  // delivery, so inline; initial-exec (the library is linked into executables only) makes it
  // one load instead of a __tls_get_addr call.
  // (No member initializers: GCC needs them complete before the static member below. A
  // thread_local starts zeroed.)
  struct Running {
    const EventQueue* queue;
    size_t lane;
  };
  [[gnu::tls_model("initial-exec")]] static inline thread_local Running running_;

  struct Lane {
    EventHeap heap;
    std::vector<Event> outbox;
  };

  void Route(const Event& event);

  std::array<Lane, kLanes> lanes_;
  EventHeap control_;
  // Per scheduling side (the lanes, then the control side): events scheduled so far.
  std::array<uint64_t, kLanes + 1> scheduled_{};
};

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_EVENT_QUEUE_H_
