// HealthMachine: the health of one skill registration, driven by heartbeats and timers (spec
// section 8; docs/architecture.md "Registration, health and the LAN").
//
// A skill reports its own status (HEALTHY, DEGRADED, MAINTENANCE, UNHEALTHY) with every
// heartbeat. When heartbeats stop, the machine marks the skill UNHEALTHY after
// `unhealthy_threshold` missed intervals and expires the registration after `timeout`; an
// expired registration accepts no more heartbeats and must register again.
//
// Pure: the machine owns no timer and reads no clock. The caller passes `now` to every call and
// arms its own timer for NextDeadline(). Every decision is made from the time since the last
// heartbeat, so a heartbeat at the same instant as a deadline always wins over the timer.
#ifndef SKILLNODE_DISCOVERY_HEALTH_H_
#define SKILLNODE_DISCOVERY_HEALTH_H_

#include "kademlia/store/record/skill_record.h"
#include "transport/clock.h"

namespace skillnode::discovery {

// The seed's defaults (spec section 8.2).
constexpr transport::Duration kHeartbeatIntervalDefault = transport::Seconds(5);
constexpr transport::Duration kHealthTimeoutDefault = transport::Seconds(30);
constexpr int kUnhealthyThresholdDefault = 3;

struct HealthPolicy {
  transport::Duration heartbeat_interval = kHeartbeatIntervalDefault;  // > 0
  transport::Duration timeout = kHealthTimeoutDefault;                 // > 0; silence before expiry
  int unhealthy_threshold = kUnhealthyThresholdDefault;                // >= 1 missed heartbeats
};

class HealthMachine {
 public:
  // Starts HEALTHY, as if a heartbeat arrived at `now` (registration counts as one). The policy
  // must hold positive durations and a threshold of at least 1 (asserted).
  HealthMachine(const HealthPolicy& policy, transport::TimePoint now);

  enum class Change { kNone, kStatusChanged, kExpired };

  // Records a heartbeat and the status the skill reports. Returns kStatusChanged when the
  // status differs from before. After expiry it is ignored and returns kNone.
  Change OnHeartbeat(transport::TimePoint now, kademlia::store::SkillStatus reported);
  // UNHEALTHY once now - last_heartbeat >= unhealthy_threshold * heartbeat_interval; expired
  // (and UNHEALTHY) once now - last_heartbeat >= timeout. Returns what changed.
  Change OnTimer(transport::TimePoint now);
  // The next instant at which OnTimer would change something; kTimeNever once expired.
  transport::TimePoint NextDeadline() const;

  kademlia::store::SkillStatus status() const { return status_; }
  bool expired() const { return expired_; }
  // Whole heartbeat intervals since the last heartbeat.
  int missed_heartbeats(transport::TimePoint now) const;
  transport::TimePoint last_heartbeat() const { return last_heartbeat_; }
  const HealthPolicy& policy() const { return policy_; }

 private:
  transport::TimePoint UnhealthyAt() const;
  transport::TimePoint ExpiresAt() const;

  HealthPolicy policy_;
  transport::TimePoint last_heartbeat_;
  kademlia::store::SkillStatus status_ = kademlia::store::SkillStatus::kHealthy;
  bool expired_ = false;
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_HEALTH_H_
