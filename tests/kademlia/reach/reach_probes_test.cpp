// ReachProbes: the schedule (unknown, decided, hurried, the in-flight bound), and each way a
// probe ends: reached, from a contact, not reached after the grace, given up.
#include "kademlia/reach/reach_probes.h"

#include <catch2/catch.hpp>
#include <vector>

namespace skillnode::kademlia::reach {
namespace {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

transport::TimePoint At(int millis) { return kStart + transport::Millis(millis); }
NodeId Helper(int i) { return Key::Sha256("helper-" + std::to_string(i)); }

ReachConfig Config() {
  ReachConfig config;
  config.probes_in_flight_max = 2;
  config.probe_interval_unknown = transport::Seconds(5);
  config.probe_interval = transport::Seconds(600);
  config.probe_timeout = transport::Seconds(5);
  config.dial_back_grace = transport::Seconds(2);
  return config;
}

TEST_CASE("probes are due at once, then every interval of the verdict, within the bound",
          "[unit]") {
  const ReachConfig config = Config();
  ReachProbes probes(config);
  CHECK(probes.Due(At(0), Reachability::kUnknown));
  probes.Started(At(0), 1, Helper(1));
  CHECK(probes.Asking(Helper(1)));
  CHECK_FALSE(probes.Asking(Helper(2)));
  CHECK_FALSE(probes.Due(At(4999), Reachability::kUnknown));
  CHECK(probes.NextDue(Reachability::kUnknown) == At(5000));
  CHECK(probes.Due(At(5000), Reachability::kUnknown));
  CHECK_FALSE(probes.Due(At(5000), Reachability::kPublic));
  CHECK(probes.NextDue(Reachability::kNat) == At(600000));
  probes.Started(At(5000), 2, Helper(2));
  // Two in flight: none is due, whatever the time.
  CHECK(probes.NextDue(Reachability::kUnknown) == transport::kTimeNever);
  CHECK_FALSE(probes.Due(At(60000), Reachability::kUnknown));
  CHECK(probes.in_flight() == 2);
  // A hurry makes one due as soon as one ends.
  probes.Hurry();
  CHECK(probes.DialedBack(1, false) == DialBackFate::kReached);
  CHECK(probes.Due(At(5001), Reachability::kPublic));
  probes.Started(At(5001), 3, Helper(3));
  CHECK_FALSE(probes.Due(At(5002), Reachability::kPublic));
}

TEST_CASE("a probe ends reached, from a contact, not reached after its grace, or with nothing",
          "[unit]") {
  const ReachConfig config = Config();
  ReachProbes probes(config);
  probes.Started(At(0), 10, Helper(1));
  probes.Started(At(0), 11, Helper(2));
  CHECK(probes.NextDeadline() == At(5000));
  // A dial-back from an endpoint this node sent to: the probe ends, with no outcome.
  CHECK(probes.DialedBack(10, true) == DialBackFate::kFromContact);
  CHECK(probes.DialedBack(10, false) == DialBackFate::kUnknown);  // once only
  CHECK(probes.DialedBack(99, false) == DialBackFate::kUnknown);
  // The helper says it was sent; none comes within the grace: not reached.
  probes.Answered(At(300), 11, true);
  CHECK(probes.NextDeadline() == At(2300));
  CHECK(probes.Expire(At(2299)).empty());
  CHECK(probes.Expire(At(2300)) == std::vector<DialOutcome>{DialOutcome::kNotReached});
  CHECK(probes.in_flight() == 0);
  CHECK(probes.NextDeadline() == transport::kTimeNever);

  // The dial-back came before the helper's answer: reached; the late answer changes nothing.
  probes.Started(At(6000), 12, Helper(3));
  CHECK(probes.DialedBack(12, false) == DialBackFate::kReached);
  probes.Answered(At(6100), 12, true);
  CHECK(probes.in_flight() == 0);
  // A helper that could not have it sent, or never answers: no outcome.
  probes.Started(At(12000), 13, Helper(4));
  probes.Started(At(12000), 14, Helper(5));
  probes.Answered(At(12100), 13, false);
  CHECK(probes.in_flight() == 1);
  CHECK(probes.Expire(At(17000)).empty());
  CHECK(probes.in_flight() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia::reach
