// ReachVerdict: two outcomes of a kind that outnumber the other decide, one stray outcome does
// not flip a verdict, old outcomes age out, and Reset starts over.
#include "kademlia/reach/reach_verdict.h"

#include <catch2/catch.hpp>

namespace skillnode::kademlia::reach {
namespace {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

ReachConfig Config() {
  ReachConfig config;
  config.outcomes_max = 4;
  config.outcomes_to_decide = 2;
  config.outcome_life = transport::Seconds(3600);
  return config;
}

transport::TimePoint At(int seconds) { return kStart + transport::Seconds(seconds); }

TEST_CASE("a verdict needs two outcomes of a kind that outnumber the other", "[unit]") {
  const ReachConfig config = Config();
  ReachVerdict verdict(config);
  CHECK(verdict.Current(At(0)) == Reachability::kUnknown);
  verdict.Record(At(1), DialOutcome::kReached);
  CHECK(verdict.Current(At(1)) == Reachability::kUnknown);
  verdict.Record(At(2), DialOutcome::kNotReached);
  verdict.Record(At(3), DialOutcome::kNotReached);
  CHECK(verdict.Current(At(3)) == Reachability::kNat);
  CHECK(ReachabilityName(verdict.Current(At(3))) == "nat");

  ReachVerdict other(config);
  other.Record(At(1), DialOutcome::kReached);
  other.Record(At(2), DialOutcome::kReached);
  CHECK(other.Current(At(2)) == Reachability::kPublic);
  CHECK(ReachabilityName(other.Current(At(2))) == "public");
}

TEST_CASE("one stray outcome does not flip a verdict; a run of the other kind does", "[unit]") {
  const ReachConfig config = Config();
  ReachVerdict verdict(config);
  verdict.Record(At(1), DialOutcome::kReached);
  verdict.Record(At(2), DialOutcome::kReached);
  verdict.Record(At(3), DialOutcome::kReached);
  verdict.Record(At(4), DialOutcome::kNotReached);  // a lost datagram
  CHECK(verdict.Current(At(4)) == Reachability::kPublic);
  verdict.Record(At(5), DialOutcome::kNotReached);  // 2 against 2: still where it was
  CHECK(verdict.Current(At(5)) == Reachability::kPublic);
  verdict.Record(At(6), DialOutcome::kNotReached);  // the window holds 1 reached, 3 not
  CHECK(verdict.outcomes() == 4);
  CHECK(verdict.Current(At(6)) == Reachability::kNat);
}

TEST_CASE("outcomes age out, the verdict stays, and Reset starts over", "[unit]") {
  const ReachConfig config = Config();
  ReachVerdict verdict(config);
  verdict.Record(At(0), DialOutcome::kNotReached);
  verdict.Record(At(10), DialOutcome::kNotReached);
  REQUIRE(verdict.Current(At(10)) == Reachability::kNat);
  CHECK(verdict.Current(At(3605)) == Reachability::kNat);
  CHECK(verdict.outcomes() == 1);
  // The first has aged out: one new reached outcome and one more decide against the other.
  verdict.Record(At(3620), DialOutcome::kReached);
  CHECK(verdict.outcomes() == 1);
  CHECK(verdict.Current(At(3620)) == Reachability::kNat);
  verdict.Record(At(3621), DialOutcome::kReached);
  CHECK(verdict.Current(At(3621)) == Reachability::kPublic);
  verdict.Reset();
  CHECK(verdict.outcomes() == 0);
  CHECK(verdict.Current(At(3622)) == Reachability::kUnknown);
  CHECK(ReachabilityName(Reachability::kUnknown) == "unknown");
}

}  // namespace
}  // namespace skillnode::kademlia::reach
