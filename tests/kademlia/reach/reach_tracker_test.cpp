// ReachTracker: a public node and a node behind a NAT each reach their verdict from probes, a
// dial-back from a destination sent to lately decides nothing, and a move to another address
// (or a Restart, as when a port is mapped) starts over while an address found or lost does not.
#include "kademlia/reach/reach_tracker.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::kademlia::reach {
namespace {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

transport::TimePoint At(int millis) { return kStart + transport::Millis(millis); }
transport::Endpoint Ep(const std::string& text) { return *transport::Endpoint::Parse(text); }
NodeId Helper(int i) { return Key::Sha256("helper-" + std::to_string(i)); }

// Three voter groups say they saw the node at `observed`.
void Vote(ReachTracker& tracker, transport::TimePoint now, const std::string& observed) {
  for (int i = 0; i < 3; ++i) {
    tracker.OnObserved(now, Ep("198.51." + std::to_string(100 + i) + ".1:4222"), Ep(observed));
  }
}

// Runs the tracker's probes from `from` for `seconds`, each answered by its helper at once as
// dialed; `arrives` says whether the dial-back reaches the node, from a stranger's endpoint.
void Probe(ReachTracker& tracker, int from, int seconds, bool arrives, uint64_t& nonce) {
  for (int ms = from; ms <= from + seconds * 1000; ms += 100) {
    const transport::TimePoint now = At(ms);
    tracker.OnTimer(now);
    if (!tracker.ProbeDue(now)) continue;
    int helper = 0;
    while (tracker.Asking(Helper(helper))) ++helper;
    tracker.ProbeStarted(now, ++nonce, Helper(helper));
    if (arrives) tracker.OnDialBack(now, nonce, Ep("203.0.113.50:50000"));
    tracker.ProbeAnswered(now, nonce, true);
  }
}

TEST_CASE("a node strangers reach is public; one whose dial-backs never come is behind a NAT",
          "[unit]") {
  const ReachConfig config;
  uint64_t nonce = 0;
  ReachTracker open(config);
  Vote(open, At(0), "192.0.2.10:4222");
  Probe(open, 0, 30, true, nonce);
  CHECK(open.Current(At(30000)) == Reachability::kPublic);
  CHECK(open.External(At(30000)).endpoint == Ep("192.0.2.10:4222"));
  CHECK(open.stats().probes_reached >= 2);
  CHECK(open.stats().probes_not_reached == 0);
  CHECK(open.stats().verdict_changes == 1);

  ReachTracker behind(config);
  Vote(behind, At(0), "192.0.2.20:31000");
  Probe(behind, 0, 30, false, nonce);
  CHECK(behind.Current(At(30000)) == Reachability::kNat);
  CHECK(behind.stats().probes_not_reached >= 2);
  CHECK(behind.stats().probes_reached == 0);
  // Decided: the next probe is a probe_interval after the last.
  CHECK(behind.NextProbeDue(At(30000)) > At(30000) + transport::Seconds(500));
  CHECK(behind.NextProbeDeadline() == transport::kTimeNever);  // none in flight

  SECTION("until what lies between changes (a port mapped): it starts over, probing at once") {
    behind.Restart(At(31000));
    CHECK(behind.Current(At(31000)) == Reachability::kUnknown);
    CHECK(behind.stats().verdict_changes == 2);
    CHECK(behind.ProbeDue(At(31000)));
    Probe(behind, 31000, 30, true, nonce);  // the router forwards the port now
    CHECK(behind.Current(At(61000)) == Reachability::kPublic);
  }
}

TEST_CASE("a dial-back from a destination sent to lately decides nothing", "[unit]") {
  const ReachConfig config;
  ReachTracker tracker(config);
  tracker.OnSent(At(0), Ep("203.0.113.50:50000"));
  for (uint64_t nonce = 1; nonce <= 3; ++nonce) {
    const transport::TimePoint now = At(static_cast<int>(nonce) * 6000);
    REQUIRE(tracker.ProbeDue(now));
    tracker.ProbeStarted(now, nonce, Helper(static_cast<int>(nonce)));
    CHECK(tracker.OnDialBack(now, nonce, Ep("203.0.113.50:50000")) == DialBackFate::kFromContact);
  }
  CHECK(tracker.OnDialBack(At(20000), 77, Ep("203.0.113.60:50000")) == DialBackFate::kUnknown);
  CHECK(tracker.Current(At(20000)) == Reachability::kUnknown);
  CHECK(tracker.stats().dial_backs_from_contacts == 3);
  CHECK(tracker.stats().dial_backs_unknown == 1);
  CHECK(tracker.stats().probes_reached == 0);
}

TEST_CASE("a move to another address starts over; an address found or lost does not", "[unit]") {
  ReachConfig config;
  config.vote_life = transport::Seconds(600);
  uint64_t nonce = 0;
  ReachTracker tracker(config);
  Probe(tracker, 0, 20, true, nonce);  // decided before any address is known
  REQUIRE(tracker.Current(At(20000)) == Reachability::kPublic);
  Vote(tracker, At(20000), "192.0.2.10:4222");  // found: nothing else changes
  CHECK(tracker.Current(At(20000)) == Reachability::kPublic);
  CHECK(tracker.stats().address_changes == 0);
  CHECK_FALSE(tracker.ProbeDue(At(20000)));
  // The votes age out: the address is lost, the verdict stays.
  CHECK_FALSE(tracker.External(At(700000)).address.has_value());
  CHECK(tracker.Current(At(700000)) == Reachability::kPublic);
  // It comes back the same: no change. Then the host moves.
  Vote(tracker, At(700000), "192.0.2.10:4222");
  CHECK(tracker.stats().address_changes == 0);
  for (int i = 0; i < 3; ++i) {
    tracker.OnObserved(At(710000), Ep("198.18." + std::to_string(i) + ".1:4222"),
                       Ep("192.0.2.99:5000"));
  }
  CHECK(tracker.External(At(710000)).endpoint == std::nullopt);  // 3 against 3: no address
  CHECK(tracker.stats().address_changes == 0);
  for (int i = 3; i < 5; ++i) {
    tracker.OnObserved(At(710000), Ep("198.18." + std::to_string(i) + ".1:4222"),
                       Ep("192.0.2.99:5000"));
  }
  CHECK(tracker.External(At(710000)).endpoint == Ep("192.0.2.99:5000"));
  CHECK(tracker.stats().address_changes == 1);
  CHECK(tracker.Current(At(710000)) == Reachability::kUnknown);
  CHECK(tracker.ProbeDue(At(710000)));
  // Behind a NAT now.
  Probe(tracker, 710000, 20, false, nonce);
  CHECK(tracker.Current(At(730000)) == Reachability::kNat);
}

}  // namespace
}  // namespace skillnode::kademlia::reach
