// ReachProbes: the asking side of dial-back probes (docs/protocol.md "Reachability"). A probe
// asks one helper (a peer this node reaches) to have a third party send a dial-back, carrying
// the probe's nonce, to the address the helper saw this node at, from a port this node never
// sent to. Then:
//   - the dial-back arrives from an endpoint this node did not send to lately: kReached;
//   - it arrives from one it did (RecentDestinations): no outcome, the NAT may have let it in;
//   - the helper answers that the dial-back was sent, and none arrives within dial_back_grace:
//     kNotReached;
//   - the helper answers that it could not have one sent, or does not answer within
//     probe_timeout: no outcome.
// The nonce is the probe's only proof: only the helper and the third party learn it. A helper
// that lies decides one outcome; the verdict (reach_verdict.h) needs two, from different
// helpers, since a probe's helper is never one that another probe in flight asked.
//
// The schedule: a probe is due every probe_interval_unknown while the verdict is unknown (at
// most probes_in_flight_max in flight), every probe_interval once it is decided; Hurry() makes
// one due at once (the external address changed).
//
// Not thread-safe; no I/O: the caller sends the requests, draws the nonces, and passes what
// comes back in.
#ifndef SKILLNODE_KADEMLIA_REACH_REACH_PROBES_H_
#define SKILLNODE_KADEMLIA_REACH_REACH_PROBES_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/reach/reach_config.h"
#include "kademlia/reach/reach_verdict.h"
#include "transport/clock.h"

namespace skillnode::kademlia::reach {

// What became of a dial-back that came in.
enum class DialBackFate : uint8_t {
  kReached,      // a probe's nonce, from a stranger's endpoint: an outcome
  kFromContact,  // a probe's nonce, from an endpoint this node sent to lately: no outcome
  kUnknown,      // no probe in flight has this nonce (late, repeated, or forged)
};

class ReachProbes {
 public:
  explicit ReachProbes(const ReachConfig& config) : config_(config) {}

  // Whether a probe may start at `now`, with the verdict as it stands.
  bool Due(transport::TimePoint now, Reachability verdict) const;
  // When Due next turns true (kTimeNever: only when a probe in flight ends).
  transport::TimePoint NextDue(Reachability verdict) const;
  // Whether a probe in flight asked `helper`: ask another.
  bool Asking(const NodeId& helper) const;
  // A probe with `nonce` (unique among those in flight) asked `helper` at `now`.
  void Started(transport::TimePoint now, uint64_t nonce, const NodeId& helper);
  // The helper of `nonce` answered at `now`: the dial-back was sent (`dialed`; unless it came
  // already, the probe waits dial_back_grace for it, and Expire decides kNotReached), or not
  // (the probe ends with no outcome).
  void Answered(transport::TimePoint now, uint64_t nonce, bool dialed);
  // A dial-back with `nonce` came at `now` from an endpoint this node sent to lately or not.
  DialBackFate DialedBack(uint64_t nonce, bool from_contact);
  // Ends the probes whose time ran out at `now`; the outcomes they decided (kNotReached).
  std::vector<DialOutcome> Expire(transport::TimePoint now);
  // When Expire next has something to do (kTimeNever: nothing in flight).
  transport::TimePoint NextDeadline() const;
  // Makes a probe due at once (the network changed).
  void Hurry() { last_started_ = transport::kTimeZero; }

  size_t in_flight() const { return probes_.size(); }

 private:
  struct Probe {
    NodeId helper;
    transport::TimePoint deadline = transport::kTimeZero;  // probe_timeout, then the grace
    bool dialed = false;                                   // the helper said the dial-back was sent
  };

  const ReachConfig& config_;
  std::map<uint64_t, Probe> probes_;  // by nonce
  // When the last probe started; kTimeZero (never a real instant): none yet, or Hurry() since.
  transport::TimePoint last_started_ = transport::kTimeZero;
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_REACH_PROBES_H_
