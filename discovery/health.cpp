#include "discovery/health.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace skillnode::discovery {

using kademlia::store::SkillStatus;

HealthMachine::HealthMachine(const HealthPolicy& policy, transport::TimePoint now)
    : policy_(policy), last_heartbeat_(now) {
  assert(policy_.heartbeat_interval > transport::Duration::zero());
  assert(policy_.timeout > transport::Duration::zero());
  assert(policy_.unhealthy_threshold >= 1);
}

HealthMachine::Change HealthMachine::OnHeartbeat(transport::TimePoint now, SkillStatus reported) {
  if (expired_) return Change::kNone;
  // A heartbeat never moves the clock backwards, even if the caller's `now` did.
  last_heartbeat_ = std::max(last_heartbeat_, now);
  const SkillStatus before = status_;
  status_ = reported;
  return status_ == before ? Change::kNone : Change::kStatusChanged;
}

HealthMachine::Change HealthMachine::OnTimer(transport::TimePoint now) {
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

transport::TimePoint HealthMachine::NextDeadline() const {
  if (expired_) return transport::kTimeNever;
  if (status_ != SkillStatus::kUnhealthy) return std::min(UnhealthyAt(), ExpiresAt());
  return ExpiresAt();
}

int HealthMachine::missed_heartbeats(transport::TimePoint now) const {
  if (now <= last_heartbeat_) return 0;
  const auto missed = (now - last_heartbeat_) / policy_.heartbeat_interval;
  return static_cast<int>(std::min<decltype(missed)>(missed, std::numeric_limits<int>::max()));
}

transport::TimePoint HealthMachine::UnhealthyAt() const {
  return last_heartbeat_ + policy_.heartbeat_interval * policy_.unhealthy_threshold;
}

transport::TimePoint HealthMachine::ExpiresAt() const { return last_heartbeat_ + policy_.timeout; }

}  // namespace skillnode::discovery
