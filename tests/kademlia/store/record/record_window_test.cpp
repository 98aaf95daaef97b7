// RecordWindow (kademlia/store/record/record_window.h): the check of a record's validity window on
// this node's wall clock, how long a copy is held, the mapping of wall-clock times onto the
// node's timeline, and when a record of our own is due to be signed again.
#include "kademlia/store/record/record_window.h"

#include <catch2/catch.hpp>

#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::SampleRecord;

constexpr uint64_t kMinuteMs = 60 * 1000;

// SampleRecord is signed at the simulated epoch (kTimeZero) and lives 3600 s.
const RecordWindow kWindow(SimulatedWallClockMs, transport::Seconds(5 * 60));

TEST_CASE("the simulated wall clock reads the simulated epoch at time zero", "[unit]") {
  CHECK(SimulatedWallClockMs(transport::kTimeZero) == kSimulatedEpochMs);
  CHECK(SimulatedWallClockMs(transport::kTimeZero + transport::Seconds(2)) ==
        kSimulatedEpochMs + 2000);
  CHECK(kWindow.WallMs(transport::kTimeZero + transport::Millis(5)) == kSimulatedEpochMs + 5);
}

TEST_CASE("the window check takes a record inside its window give or take the skew", "[unit]") {
  const SkillRecord r = SampleRecord();
  CHECK(kWindow.Check(transport::kTimeZero, r));
  CHECK(kWindow.Check(transport::kTimeZero + transport::Seconds(3600 + 300), r));
  CHECK_FALSE(kWindow.Check(transport::kTimeZero + transport::Seconds(3600 + 301), r));
  // A window that has not begun yet (signed six minutes ahead of our clock) is refused too.
  SkillRecord early = r;
  early.timestamp_ms += 6 * kMinuteMs;
  CHECK_FALSE(kWindow.Check(transport::kTimeZero, early));
}

TEST_CASE("a wall-clock time maps to the point of the timeline where the clock reads it",
          "[unit]") {
  const transport::TimePoint now = transport::kTimeZero + transport::Seconds(10);
  CHECK(kWindow.LocalTimeOf(now, kSimulatedEpochMs + 70 * 1000) ==
        transport::kTimeZero + transport::Seconds(70));
  // A time already past maps to now.
  CHECK(kWindow.LocalTimeOf(now, kSimulatedEpochMs) == now);
}

TEST_CASE("a live copy is held no longer than its window, a tombstone at least that long",
          "[unit]") {
  const transport::TimePoint now = transport::kTimeZero + transport::Seconds(3000);
  SkillRecord r = SampleRecord();
  // The window and the skew end at 3900 s: 900 s from now.
  CHECK(kWindow.HeldFor(now, r, transport::Seconds(3600)) == transport::Seconds(900));
  CHECK(kWindow.HeldFor(now, r, transport::Seconds(60)) == transport::Seconds(60));
  r.tombstone = true;
  CHECK(kWindow.HeldFor(now, r, transport::Seconds(60)) == transport::Seconds(900));
  CHECK(kWindow.HeldFor(now, r, transport::Seconds(3600)) == transport::Seconds(3600));
}

TEST_CASE("a record ends soon once less than the republish interval and a quarter ttl is left",
          "[unit]") {
  const SkillRecord r = SampleRecord();  // ends at the epoch + 3600 s
  const transport::Duration interval = transport::Seconds(20 * 60);
  // 1200 s + 900 s wanted: at 1500 s, 2100 s are left; at 1501 s, one second less.
  CHECK_FALSE(RecordWindow::EndsSoon(kSimulatedEpochMs + 1500 * 1000, r, interval));
  CHECK(RecordWindow::EndsSoon(kSimulatedEpochMs + 1501 * 1000, r, interval));
  // Ended already.
  CHECK(RecordWindow::EndsSoon(kSimulatedEpochMs + 3601 * 1000, r, interval));
}

}  // namespace
}  // namespace skillnode::kademlia::store
