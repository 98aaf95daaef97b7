#include "kademlia/reach/reach_tracker.h"

#include <algorithm>

namespace skillnode::kademlia::reach {

void ReachTracker::OnObserved(transport::TimePoint now, const transport::Endpoint& voter,
                              const transport::Endpoint& observed) {
  vote_.Observe(now, voter, observed);
  NoteAddress(now);
}

void ReachTracker::ProbeStarted(transport::TimePoint now, uint64_t nonce, const NodeId& helper) {
  probes_.Started(now, nonce, helper);
  ++stats_.probes_started;
}

DialBackFate ReachTracker::OnDialBack(transport::TimePoint now, uint64_t nonce,
                                      const transport::Endpoint& from) {
  const DialBackFate fate = probes_.DialedBack(nonce, recent_.MaybeContacted(now, from));
  switch (fate) {
    case DialBackFate::kReached:
      Record(now, DialOutcome::kReached);
      break;
    case DialBackFate::kFromContact:
      ++stats_.dial_backs_from_contacts;
      break;
    case DialBackFate::kUnknown:
      ++stats_.dial_backs_unknown;
      break;
  }
  return fate;
}

void ReachTracker::OnTimer(transport::TimePoint now) {
  for (const DialOutcome outcome : probes_.Expire(now)) Record(now, outcome);
}

void ReachTracker::Record(transport::TimePoint now, DialOutcome outcome) {
  ++(outcome == DialOutcome::kReached ? stats_.probes_reached : stats_.probes_not_reached);
  const Reachability before = verdict_.Current(now);
  verdict_.Record(now, outcome);
  if (verdict_.Current(now) != before) ++stats_.verdict_changes;
}

void ReachTracker::Restart(transport::TimePoint now) {
  if (verdict_.Current(now) != Reachability::kUnknown) ++stats_.verdict_changes;
  verdict_.Reset();
  probes_.Hurry();
}

void ReachTracker::NoteAddress(transport::TimePoint now) {
  if (vote_.generation() == vote_generation_) return;
  vote_generation_ = vote_.generation();
  const std::optional<transport::Address>& found = vote_.Current(now).address;
  if (!found) return;  // lost for want of votes: nothing moved
  if (address_ && *address_ != *found) {
    ++stats_.address_changes;
    Restart(now);
  }
  address_ = found;
}

}  // namespace skillnode::kademlia::reach
