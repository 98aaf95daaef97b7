// RecordWindow: this node's side of record validity windows (kademlia/store/record/skill_record.h,
// NotAfterMs). It owns the node's wall clock and the allowed clock skew, and answers the
// questions the skill store asks of time: is a record from the network inside its signed
// window, how long may a copy be held, at which point of our timeline does a wall-clock time
// fall, and is our own record's window close enough to its end to sign it again.
//
// Pure: no I/O, no clock of its own (the wall clock is injected). Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_WINDOW_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_WINDOW_H_

#include <cstdint>
#include <functional>

#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record/term_pointer.h"
#include "transport/clock.h"

namespace skillnode::kademlia::store {

// This node's wall clock, in milliseconds since the Unix epoch, at a point of its own timeline:
// the system clock in the daemon; the simulated calendar in simulations and tests.
using WallClock = std::function<uint64_t(transport::TimePoint)>;
// The simulated calendar: kTimeZero is 2024-02-14 00:00 UTC (the seed protocol's example time).
constexpr uint64_t kSimulatedEpochMs = 1707868800000;
uint64_t SimulatedWallClockMs(transport::TimePoint now);

class RecordWindow {
 public:
  RecordWindow(WallClock wall_clock, transport::Duration clock_skew);

  // Our wall clock at `now`.
  uint64_t WallMs(transport::TimePoint now) const { return wall_clock_(now); }
  // Whether our wall clock is inside the record's validity window, give or take the skew.
  [[nodiscard]] transport::Result<void> Check(transport::TimePoint now,
                                              const SkillRecord& record) const;
  // The same for a term pointer (its record's window).
  [[nodiscard]] transport::Result<void> Check(transport::TimePoint now,
                                              const TermPointer& pointer) const;
  // The point of our timeline at which our wall clock reads `wall_ms` (now, if it has passed).
  transport::TimePoint LocalTimeOf(transport::TimePoint now, uint64_t wall_ms) const;
  // How long a copy is held when offered for `offered`: a live record no longer than its
  // window lasts (with the skew), a tombstone at least that long.
  transport::Duration HeldFor(transport::TimePoint now, const SkillRecord& record,
                              transport::Duration offered) const;
  transport::Duration HeldFor(transport::TimePoint now, const TermPointer& pointer,
                              transport::Duration offered) const;
  // Whether, when our wall clock reads `wall_now`, the record's window has ended or has less
  // than `republish_interval` + ttl / 4 left: a record of our own is then signed again at its
  // republish.
  static bool EndsSoon(uint64_t wall_now, const SkillRecord& record,
                       transport::Duration republish_interval);

 private:
  transport::Duration HeldFor(transport::TimePoint now, uint64_t not_after_ms, bool tombstone,
                              transport::Duration offered) const;

  WallClock wall_clock_;
  transport::Duration clock_skew_;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_WINDOW_H_
