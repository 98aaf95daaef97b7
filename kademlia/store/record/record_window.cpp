// RecordWindow (record_window.h): the arithmetic of validity windows between our timeline and
// our wall clock, saturating rather than wrapping at the ends of the uint64_t range.
#include "kademlia/store/record/record_window.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace skillnode::kademlia::store {
namespace {

uint64_t MillisOf(transport::Duration d) {
  return static_cast<uint64_t>(
      std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::milliseconds>(d).count()));
}

uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

uint64_t SimulatedWallClockMs(transport::TimePoint now) {
  return kSimulatedEpochMs + MillisOf(now - transport::kTimeZero);
}

RecordWindow::RecordWindow(WallClock wall_clock, transport::Duration clock_skew)
    : wall_clock_(std::move(wall_clock)), clock_skew_(clock_skew) {}

transport::Result<void> RecordWindow::Check(transport::TimePoint now,
                                            const SkillRecord& record) const {
  return CheckValidityWindow(record, wall_clock_(now), MillisOf(clock_skew_));
}

transport::Result<void> RecordWindow::Check(transport::TimePoint now,
                                            const TermPointer& pointer) const {
  return CheckValidityWindow(pointer.timestamp_ms, NotAfterMs(pointer), wall_clock_(now),
                             MillisOf(clock_skew_));
}

transport::TimePoint RecordWindow::LocalTimeOf(transport::TimePoint now, uint64_t wall_ms) const {
  const uint64_t wall_now = wall_clock_(now);
  if (wall_ms <= wall_now) return now;
  // Beyond any record's window (a day and the skew): a bound that cannot overflow.
  const uint64_t ahead = std::min<uint64_t>(wall_ms - wall_now, uint64_t{1} << 40);
  return now + std::chrono::milliseconds(ahead);
}

transport::Duration RecordWindow::HeldFor(transport::TimePoint now, const SkillRecord& record,
                                          transport::Duration offered) const {
  return HeldFor(now, NotAfterMs(record), record.tombstone, offered);
}

transport::Duration RecordWindow::HeldFor(transport::TimePoint now, const TermPointer& pointer,
                                          transport::Duration offered) const {
  return HeldFor(now, NotAfterMs(pointer), pointer.tombstone, offered);
}

transport::Duration RecordWindow::HeldFor(transport::TimePoint now, uint64_t not_after_ms,
                                          bool tombstone, transport::Duration offered) const {
  const transport::TimePoint window_end =
      LocalTimeOf(now, SaturatingAdd(not_after_ms, MillisOf(clock_skew_)));
  const transport::Duration window_left = window_end - now;
  return tombstone ? std::max(offered, window_left) : std::min(offered, window_left);
}

bool RecordWindow::EndsSoon(uint64_t wall_now, const SkillRecord& record,
                            transport::Duration republish_interval) {
  const uint64_t not_after = NotAfterMs(record);
  const uint64_t wanted = MillisOf(republish_interval) + uint64_t{record.ttl_seconds} * 250;
  return !(not_after > wall_now && not_after - wall_now >= wanted);
}

}  // namespace skillnode::kademlia::store
