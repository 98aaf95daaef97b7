// ReachTracker: what a node knows of its own reachability (docs/protocol.md "Reachability"),
// from the traffic the node passes in: its external address (AddressVote over the "o" of the
// replies it gets), whether strangers reach it (ReachVerdict over its dial-back probes,
// ReachProbes), and where it sent lately (RecentDestinations, to tell a stranger's dial-back
// from a reply its NAT let in).
//
// When the voted address moves from one address to another (the host moved, the NAT rebooted
// with a new address), what the probes decided belongs to the old network: the verdict goes
// back to unknown and a probe is due at once. An address found for the first time, or lost
// because the votes aged out, changes nothing else.
//
// Not thread-safe; no I/O: the node sends the probes, draws their nonces and calls OnTimer at
// NextDeadline.
#ifndef SKILLNODE_KADEMLIA_REACH_REACH_TRACKER_H_
#define SKILLNODE_KADEMLIA_REACH_REACH_TRACKER_H_

#include <cstdint>
#include <optional>

#include "kademlia/key.h"
#include "kademlia/reach/address_vote.h"
#include "kademlia/reach/reach_config.h"
#include "kademlia/reach/reach_probes.h"
#include "kademlia/reach/reach_verdict.h"
#include "kademlia/reach/recent_destinations.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::reach {

struct ReachStats {
  uint64_t probes_started = 0;
  uint64_t probes_reached = 0;            // outcomes kReached
  uint64_t probes_not_reached = 0;        // outcomes kNotReached
  uint64_t dial_backs_from_contacts = 0;  // dropped: from an endpoint sent to lately
  uint64_t dial_backs_unknown = 0;        // dropped: no probe in flight had the nonce
  uint64_t verdict_changes = 0;
  uint64_t address_changes = 0;  // the voted address moved from one address to another
};

class ReachTracker {
 public:
  explicit ReachTracker(const ReachConfig& config)
      : vote_(config), verdict_(config), probes_(config), recent_(config) {}

  // This node sent a datagram to `to`.
  void OnSent(transport::TimePoint now, const transport::Endpoint& to) { recent_.Sent(now, to); }
  // A reply from `voter` said it saw this node at `observed`.
  void OnObserved(transport::TimePoint now, const transport::Endpoint& voter,
                  const transport::Endpoint& observed);

  // Whether a probe should start now; then ask a helper that Asking() says no to, and call
  // ProbeStarted.
  bool ProbeDue(transport::TimePoint now) { return probes_.Due(now, Current(now)); }
  bool Asking(const NodeId& helper) const { return probes_.Asking(helper); }
  void ProbeStarted(transport::TimePoint now, uint64_t nonce, const NodeId& helper);
  // The probe's helper answered: the dial-back was sent, or it could not be.
  void ProbeAnswered(transport::TimePoint now, uint64_t nonce, bool dialed) {
    probes_.Answered(now, nonce, dialed);
  }
  // A dial-back with `nonce` came from `from`.
  DialBackFate OnDialBack(transport::TimePoint now, uint64_t nonce,
                          const transport::Endpoint& from);
  // Ends the probes whose time ran out; call at NextDeadline.
  void OnTimer(transport::TimePoint now);
  // What lies between this node and the others changed (a port mapping was made or lost): as
  // when the address moves, the verdict starts over and the next probe is due at once.
  void Restart(transport::TimePoint now);
  // When OnTimer has a probe to end (kTimeNever: none in flight), and when the next probe is
  // due (kTimeNever: only once one in flight ends).
  transport::TimePoint NextProbeDeadline() const { return probes_.NextDeadline(); }
  transport::TimePoint NextProbeDue(transport::TimePoint now) {
    return probes_.NextDue(Current(now));
  }

  Reachability Current(transport::TimePoint now) { return verdict_.Current(now); }
  const ExternalAddress& External(transport::TimePoint now) { return vote_.Current(now); }
  const ReachStats& stats() const { return stats_; }
  size_t probes_in_flight() const { return probes_.in_flight(); }

 private:
  void Record(transport::TimePoint now, DialOutcome outcome);
  // After the vote may have changed: a move from one address to another starts over.
  void NoteAddress(transport::TimePoint now);

  AddressVote vote_;
  ReachVerdict verdict_;
  ReachProbes probes_;
  RecentDestinations recent_;
  ReachStats stats_;
  uint64_t vote_generation_ = 0;
  std::optional<transport::Address> address_;  // the last address the vote found
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_REACH_TRACKER_H_
