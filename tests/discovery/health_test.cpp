#include "discovery/health.h"

#include <catch2/catch.hpp>

namespace skillnode::discovery {
namespace {

using kademlia::store::SkillStatus;
using Change = HealthMachine::Change;

// Interval 5 s, UNHEALTHY after 3 missed (15 s), expiry after 30 s: the seed's defaults.
const HealthPolicy kPolicy{transport::Seconds(5), transport::Seconds(30), 3};
const transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(100);

TEST_CASE("A new registration is healthy and wakes at the unhealthy deadline", "[unit]") {
  HealthMachine m(kPolicy, kStart);
  CHECK(m.status() == SkillStatus::kHealthy);
  CHECK_FALSE(m.expired());
  CHECK(m.last_heartbeat() == kStart);
  CHECK(m.NextDeadline() == kStart + transport::Seconds(15));
  CHECK(m.missed_heartbeats(kStart) == 0);
  CHECK(m.missed_heartbeats(kStart + transport::Millis(4999)) == 0);
  CHECK(m.missed_heartbeats(kStart + transport::Seconds(5)) == 1);
  CHECK(m.missed_heartbeats(kStart + transport::Seconds(14)) == 2);
}

TEST_CASE("Silence makes a skill unhealthy, then expires it", "[unit]") {
  HealthMachine m(kPolicy, kStart);
  CHECK(m.OnTimer(kStart + transport::Seconds(15) - transport::Millis(1)) == Change::kNone);
  CHECK(m.status() == SkillStatus::kHealthy);
  CHECK(m.OnTimer(kStart + transport::Seconds(15)) == Change::kStatusChanged);
  CHECK(m.status() == SkillStatus::kUnhealthy);
  CHECK(m.missed_heartbeats(kStart + transport::Seconds(15)) == 3);
  CHECK(m.NextDeadline() == kStart + transport::Seconds(30));
  CHECK(m.OnTimer(kStart + transport::Seconds(20)) == Change::kNone);
  CHECK(m.OnTimer(kStart + transport::Seconds(30) - transport::Millis(1)) == Change::kNone);
  CHECK_FALSE(m.expired());
  CHECK(m.OnTimer(kStart + transport::Seconds(30)) == Change::kExpired);
  CHECK(m.expired());
  CHECK(m.NextDeadline() == transport::kTimeNever);
  CHECK(m.OnTimer(kStart + transport::Seconds(60)) == Change::kNone);
}

TEST_CASE("A heartbeat at the same instant as the deadline keeps the skill healthy", "[unit]") {
  SECTION("heartbeat handled before the timer") {
    HealthMachine m(kPolicy, kStart);
    const transport::TimePoint deadline = m.NextDeadline();
    CHECK(m.OnHeartbeat(deadline, SkillStatus::kHealthy) == Change::kNone);
    CHECK(m.OnTimer(deadline) == Change::kNone);
    CHECK(m.status() == SkillStatus::kHealthy);
    CHECK(m.NextDeadline() == deadline + transport::Seconds(15));
  }
  SECTION("timer handled before the heartbeat") {
    HealthMachine m(kPolicy, kStart);
    const transport::TimePoint deadline = m.NextDeadline();
    CHECK(m.OnTimer(deadline) == Change::kStatusChanged);
    CHECK(m.OnHeartbeat(deadline, SkillStatus::kHealthy) == Change::kStatusChanged);
    CHECK(m.OnTimer(deadline) == Change::kNone);
    CHECK(m.status() == SkillStatus::kHealthy);
  }
  SECTION("at the expiry instant") {
    HealthMachine m(kPolicy, kStart);
    CHECK(m.OnTimer(kStart + transport::Seconds(15)) == Change::kStatusChanged);
    CHECK(m.OnHeartbeat(kStart + transport::Seconds(30), SkillStatus::kHealthy) ==
          Change::kStatusChanged);
    CHECK(m.OnTimer(kStart + transport::Seconds(30)) == Change::kNone);
    CHECK_FALSE(m.expired());
    CHECK(m.status() == SkillStatus::kHealthy);
  }
}

TEST_CASE("Heartbeats reset the missed count and carry the reported status", "[unit]") {
  HealthMachine m(kPolicy, kStart);
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(12), SkillStatus::kDegraded) ==
        Change::kStatusChanged);
  CHECK(m.status() == SkillStatus::kDegraded);
  CHECK(m.missed_heartbeats(kStart + transport::Seconds(12)) == 0);
  CHECK(m.last_heartbeat() == kStart + transport::Seconds(12));
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(14), SkillStatus::kDegraded) == Change::kNone);
  CHECK(m.OnTimer(kStart + transport::Seconds(28)) == Change::kNone);
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(20), SkillStatus::kUnhealthy) ==
        Change::kStatusChanged);
  // Already UNHEALTHY by its own report: the next thing the timer can do is expire it.
  CHECK(m.NextDeadline() == kStart + transport::Seconds(50));
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(21), SkillStatus::kHealthy) ==
        Change::kStatusChanged);
  CHECK(m.NextDeadline() == kStart + transport::Seconds(36));
}

TEST_CASE("A heartbeat after expiry is not accepted", "[unit]") {
  HealthMachine m(kPolicy, kStart);
  CHECK(m.OnTimer(kStart + transport::Seconds(30)) == Change::kExpired);
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(31), SkillStatus::kHealthy) == Change::kNone);
  CHECK(m.expired());
  CHECK(m.status() == SkillStatus::kUnhealthy);
  CHECK(m.last_heartbeat() == kStart);
  CHECK(m.NextDeadline() == transport::kTimeNever);
}

TEST_CASE("A skill in maintenance that stops heartbeating goes unhealthy, then expires", "[unit]") {
  HealthMachine m(kPolicy, kStart);
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(5), SkillStatus::kMaintenance) ==
        Change::kStatusChanged);
  CHECK(m.NextDeadline() == kStart + transport::Seconds(20));
  CHECK(m.OnTimer(kStart + transport::Seconds(19)) == Change::kNone);
  CHECK(m.status() == SkillStatus::kMaintenance);
  CHECK(m.OnTimer(kStart + transport::Seconds(20)) == Change::kStatusChanged);
  CHECK(m.status() == SkillStatus::kUnhealthy);
  CHECK(m.OnTimer(kStart + transport::Seconds(35)) == Change::kExpired);
  CHECK(m.expired());
}

TEST_CASE("A late timer that passed both deadlines expires at once", "[unit]") {
  HealthMachine m(kPolicy, kStart);
  CHECK(m.OnTimer(kStart + transport::Seconds(40)) == Change::kExpired);
  CHECK(m.expired());
}

TEST_CASE("A timeout shorter than the unhealthy threshold expires first", "[unit]") {
  HealthMachine m(HealthPolicy{transport::Seconds(5), transport::Seconds(10), 3}, kStart);
  CHECK(m.NextDeadline() == kStart + transport::Seconds(10));
  CHECK(m.OnTimer(kStart + transport::Seconds(10)) == Change::kExpired);
}

TEST_CASE("A heartbeat with an earlier time does not move the last heartbeat back", "[unit]") {
  HealthMachine m(kPolicy, kStart);
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(10), SkillStatus::kHealthy) == Change::kNone);
  CHECK(m.OnHeartbeat(kStart + transport::Seconds(8), SkillStatus::kHealthy) == Change::kNone);
  CHECK(m.last_heartbeat() == kStart + transport::Seconds(10));
}

}  // namespace
}  // namespace skillnode::discovery
