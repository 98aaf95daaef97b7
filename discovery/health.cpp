#include "discovery/health.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace skillnode::discovery {

using kademlia::SkillStatus;

HealthMachine::HealthMachine(const HealthPolicy& policy, TimePoint now)
    : policy_(policy), last_heartbeat_(now) {
  assert(policy_.heartbeat_interval > Duration::zero());
  assert(policy_.timeout > Duration::zero());
  assert(policy_.unhealthy_threshold >= 1);
}

HealthMachine::Change HealthMachine::OnHeartbeat(TimePoint now, SkillStatus reported) {
  if (expired_) return Change::kNone;
  // A heartbeat never moves the clock backwards, even if the caller's `now` did.
  last_heartbeat_ = std::max(last_heartbeat_, now);
  const SkillStatus before = status_;
  status_ = reported;
  return status_ == before ? Change::kNone : Change::kStatusChanged;
}

HealthMachine::Change HealthMachine::OnTimer(TimePoint now) {
  if (expired_) return Change::kNone;
  if (now >= ExpiresAt()) {
    expired_ = true;
    status_ = SkillStatus::kUnhealthy;
    return Change::kExpired;
  }
  if (now >= UnhealthyAt() && status_ != SkillStatus::kUnhealthy) {
    status_ = SkillStatus::kUnhealthy;
    return Change::kStatusChanged;
  }
  return Change::kNone;
}

TimePoint HealthMachine::NextDeadline() const {
  if (expired_) return kTimeNever;
  if (status_ != SkillStatus::kUnhealthy) return std::min(UnhealthyAt(), ExpiresAt());
  return ExpiresAt();
}

int HealthMachine::missed_heartbeats(TimePoint now) const {
  if (now <= last_heartbeat_) return 0;
  const auto missed = (now - last_heartbeat_) / policy_.heartbeat_interval;
  return static_cast<int>(std::min<decltype(missed)>(missed, std::numeric_limits<int>::max()));
}

TimePoint HealthMachine::UnhealthyAt() const {
  return last_heartbeat_ + policy_.heartbeat_interval * policy_.unhealthy_threshold;
}

TimePoint HealthMachine::ExpiresAt() const { return last_heartbeat_ + policy_.timeout; }

}  // namespace skillnode::discovery
