// EventQueue: the simulator's agenda, ordered by (time, sequence).
//
// Every datagram delivery, node timer, lookup, churn transition and phase change is an Event.
// Events due at the same instant run in the order they were scheduled (the sequence), so a
// run never depends on heap internals (HOUSE_STYLE: (deadline, sequence) ordering). Not
// thread-safe; one per simulation.
#ifndef SKILLNODE_SIM_EVENT_QUEUE_H_
#define SKILLNODE_SIM_EVENT_QUEUE_H_

#include <cstdint>
#include <queue>
#include <vector>

#include "transport/clock.h"

namespace skillnode::sim {

enum class EventKind : uint8_t {
  kDeliver,       // arg: packet id
  kTimer,         // arg: the slot's timer generation when scheduled
  kStaticLookup,  // a lookup from a random honest node (static workload)
  kNodeLookup,    // arg: incarnation; the slot's periodic lookup (churn workload)
  kJoin,          // a slot of a join-built static network joins
  kJoinRetry,     // arg: incarnation; a join that found nobody tries again
  kOnline,        // a churning slot comes online
  kOffline,       // arg: incarnation; a churning slot's session ends
  kAnnounce,      // an eclipse adversary makes itself known
  kPublishAll,    // static networks with records: every joined honest node publishes
  kRecordGet,     // arg: incarnation; the slot's periodic record get
  kStop,          // the end of the run
};

struct Event {
  TimePoint at;
  uint64_t sequence = 0;
  EventKind kind = EventKind::kStop;
  uint32_t slot = 0;
  uint64_t arg = 0;
};

class EventQueue {
 public:
  void Push(TimePoint at, EventKind kind, uint32_t slot, uint64_t arg) {
    heap_.push(Event{at, sequence_++, kind, slot, arg});
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.top(); }
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
  uint64_t sequence_ = 0;
};

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_EVENT_QUEUE_H_
