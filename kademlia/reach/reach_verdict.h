// ReachVerdict: whether peers this node never sent to can reach it, from the dial-backs it
// asked for (docs/protocol.md "Reachability"). A dial-back is the AutoNAT idea: a peer asked
// by this node has a third party send to the address the peer saw this node at. It arrives
// (kReached) when nothing in front of this node drops unsolicited datagrams, and does not
// (kNotReached) behind a NAT or a firewall that does. A dial-back that came from a
// destination this node had sent to proves nothing (its NAT lets replies in) and is not an
// outcome at all: the caller drops it (RecentDestinations).
//
// The verdict weighs the last outcomes_max outcomes no older than outcome_life. It moves to
// kPublic once outcomes_to_decide of them are kReached and they outnumber kNotReached, to kNat
// on the same rule the other way, and otherwise stays where it was (one lost datagram does not
// flip it). It starts kUnknown, and Reset() (the external address changed: a new network) takes
// it back there with no outcomes.
//
// Not thread-safe; no I/O.
#ifndef SKILLNODE_KADEMLIA_REACH_REACH_VERDICT_H_
#define SKILLNODE_KADEMLIA_REACH_REACH_VERDICT_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string_view>

#include "kademlia/reach/reach_config.h"
#include "transport/clock.h"

namespace skillnode::kademlia::reach {

enum class Reachability : uint8_t { kUnknown, kPublic, kNat };
enum class DialOutcome : uint8_t { kReached, kNotReached };

// "unknown", "public", "nat": the API's and the metrics' names.
std::string_view ReachabilityName(Reachability reachability);

class ReachVerdict {
 public:
  explicit ReachVerdict(const ReachConfig& config) : config_(config) {}

  // A dial-back's outcome, known at `now`.
  void Record(transport::TimePoint now, DialOutcome outcome);
  // The verdict at `now` (outcomes past outcome_life are dropped first; the verdict stays).
  Reachability Current(transport::TimePoint now);
  // Forgets every outcome: the verdict is kUnknown until new ones decide it.
  void Reset();

  // Outcomes weighed at the last Record or Current.
  size_t outcomes() const { return outcomes_.size(); }

 private:
  struct Outcome {
    transport::TimePoint at = transport::kTimeZero;
    DialOutcome outcome = DialOutcome::kReached;
  };

  void Expire(transport::TimePoint now);
  void Decide();

  const ReachConfig& config_;
  std::deque<Outcome> outcomes_;  // newest at the back; at most outcomes_max
  Reachability current_ = Reachability::kUnknown;
};

}  // namespace skillnode::kademlia::reach

#endif  // SKILLNODE_KADEMLIA_REACH_REACH_VERDICT_H_
