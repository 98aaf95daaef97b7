// Whether a word-workload skill should be live (sim/workloads/skill_liveness.h): from its first
// acknowledged publish while its publisher's incarnation runs, for TTL - republish after that
// incarnation stopped, and an earlier incarnation's tail across a rejoin.
#include "sim/workloads/skill_liveness.h"

#include <catch2/catch.hpp>

namespace skillnode::sim::workloads {
namespace {

using transport::Seconds;
using transport::TimePoint;

TimePoint At(int seconds) { return transport::kTimeZero + Seconds(seconds); }

// TTL 3,600 s, republished every 1,200 s: live 2,400 s after the publisher stops.
SkillLiveness Make(size_t skills = 2) { return SkillLiveness(skills, Seconds(1200), 3600); }

TEST_CASE("a skill is live from its first acknowledged publish, and not before", "[unit]") {
  SkillLiveness liveness = Make();
  CHECK_FALSE(liveness.Live(0, At(10)));
  liveness.Published(0, 1);
  CHECK_FALSE(liveness.Live(0, At(10)));  // published, not yet stored anywhere
  CHECK(liveness.MarkAvailable(0, 1, At(12)));
  CHECK_FALSE(liveness.Live(0, At(11)));
  CHECK(liveness.Live(0, At(12)));
  CHECK(liveness.Live(0, At(100000)));                // while its publisher runs
  CHECK_FALSE(liveness.MarkAvailable(0, 1, At(20)));  // the first publish counts
  CHECK(liveness.Live(0, At(12)));
  CHECK_FALSE(liveness.Live(1, At(12)));  // the other skill is untouched
}

TEST_CASE("a stopped publisher's skill stays live for TTL minus the republish interval", "[unit]") {
  SkillLiveness liveness = Make();
  liveness.Published(0, 1);
  liveness.MarkAvailable(0, 1, At(10));
  liveness.Stopped(0, At(1000));
  CHECK(liveness.Live(0, At(1000 + 2399)));
  CHECK_FALSE(liveness.Live(0, At(1000 + 2400)));
  liveness.Stopped(0, At(2000));  // a second stop does not move the end
  CHECK_FALSE(liveness.Live(0, At(1000 + 2400)));

  SECTION("a TTL shorter than the republish interval ends at the stop") {
    SkillLiveness short_lived(1, Seconds(1200), 600);
    short_lived.Published(0, 1);
    short_lived.MarkAvailable(0, 1, At(10));
    short_lived.Stopped(0, At(1000));
    CHECK(short_lived.Live(0, At(999)));
    CHECK_FALSE(short_lived.Live(0, At(1000)));
  }
}

TEST_CASE("a publisher that stops before any store acknowledged leaves nothing live", "[unit]") {
  SkillLiveness liveness = Make();
  liveness.Published(0, 1);
  liveness.Stopped(0, At(50));
  CHECK_FALSE(liveness.Live(0, At(50)));
  CHECK_FALSE(liveness.MarkAvailable(0, 2, At(60)));  // not the publishing incarnation
  CHECK_FALSE(liveness.Live(0, At(60)));
}

TEST_CASE(
    "a rejoined publisher keeps the earlier incarnation's tail, and its late acks are ignored",
    "[unit]") {
  SkillLiveness liveness = Make();
  liveness.Published(0, 1);
  liveness.MarkAvailable(0, 1, At(10));
  liveness.Stopped(0, At(1000));  // live until 3,400
  liveness.Published(0, 2);       // rejoins under a new identity at 1,500
  CHECK(liveness.incarnation(0) == 2);
  CHECK(liveness.Live(0, At(1500)));  // the tail, before the new publish is acknowledged
  CHECK_FALSE(liveness.MarkAvailable(0, 1, At(1600)));  // the old incarnation's
  CHECK(liveness.Live(0, At(3399)));
  CHECK_FALSE(liveness.Live(0, At(3400)));  // the tail ended; the new publish not acknowledged
  CHECK(liveness.MarkAvailable(0, 2, At(3500)));
  CHECK(liveness.Live(0, At(3500)));
}

}  // namespace
}  // namespace skillnode::sim::workloads
