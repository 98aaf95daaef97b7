#include "kademlia/reach/reach_verdict.h"

namespace skillnode::kademlia::reach {

std::string_view ReachabilityName(Reachability reachability) {
  switch (reachability) {
    case Reachability::kUnknown:
      return "unknown";
    case Reachability::kPublic:
      return "public";
    case Reachability::kNat:
      return "nat";
  }
  return "unknown";
}

void ReachVerdict::Record(transport::TimePoint now, DialOutcome outcome) {
  if (config_.outcomes_max == 0) return;
  outcomes_.push_back(Outcome{now, outcome});
  while (outcomes_.size() > config_.outcomes_max) outcomes_.pop_front();
  Expire(now);
  Decide();
}

Reachability ReachVerdict::Current(transport::TimePoint now) {
  Expire(now);
  return current_;
}

void ReachVerdict::Reset() {
  outcomes_.clear();
  current_ = Reachability::kUnknown;
}

void ReachVerdict::Expire(transport::TimePoint now) {
  while (!outcomes_.empty() && now - outcomes_.front().at >= config_.outcome_life) {
    outcomes_.pop_front();
  }
}

void ReachVerdict::Decide() {
  size_t reached = 0;
  size_t not_reached = 0;
  for (const Outcome& o : outcomes_) {
    ++(o.outcome == DialOutcome::kReached ? reached : not_reached);
  }
  const size_t needed = config_.outcomes_to_decide;
  if (reached >= needed && reached > not_reached) {
    current_ = Reachability::kPublic;
  } else if (not_reached >= needed && not_reached > reached) {
    current_ = Reachability::kNat;
  }
}

}  // namespace skillnode::kademlia::reach
