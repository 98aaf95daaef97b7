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

#include "kademlia/store/skill_record.h"
#include "transport/clock.h"

namespace skillnode::discovery {

// The seed's defaults (spec section 8.2).
constexpr Duration kHeartbeatIntervalDefault = Seconds(5);
constexpr Duration kHealthTimeoutDefault = Seconds(30);
constexpr int kUnhealthyThresholdDefault = 3;

struct HealthPolicy {
  Duration heartbeat_interval = kHeartbeatIntervalDefault;  // > 0
  Duration timeout = kHealthTimeoutDefault;                 // > 0; silence before expiry
  int unhealthy_threshold = kUnhealthyThresholdDefault;     // >= 1 missed heartbeats
};

class HealthMachine {
 public:
  // Starts HEALTHY, as if a heartbeat arrived at `now` (registration counts as one). The policy
  // must hold positive durations and a threshold of at least 1 (asserted).
  HealthMachine(const HealthPolicy& policy, TimePoint now);

  enum class Change { kNone, kStatusChanged, kExpired };

  // Records a heartbeat and the status the skill reports. Returns kStatusChanged when the
  // status differs from before. After expiry it is ignored and returns kNone.
  Change OnHeartbeat(TimePoint now, kademlia::SkillStatus reported);
  // UNHEALTHY once now - last_heartbeat >= unhealthy_threshold * heartbeat_interval; expired
  // (and UNHEALTHY) once now - last_heartbeat >= timeout. Returns what changed.
  Change OnTimer(TimePoint now);
  // The next instant at which OnTimer would change something; kTimeNever once expired.
  TimePoint NextDeadline() const;

  kademlia::SkillStatus status() const { return status_; }
  bool expired() const { return expired_; }
  // Whole heartbeat intervals since the last heartbeat.
  int missed_heartbeats(TimePoint now) const;
  TimePoint last_heartbeat() const { return last_heartbeat_; }
  const HealthPolicy& policy() const { return policy_; }

 private:
  TimePoint UnhealthyAt() const;
  TimePoint ExpiresAt() const;

  HealthPolicy policy_;
  TimePoint last_heartbeat_;
  kademlia::SkillStatus status_ = kademlia::SkillStatus::kHealthy;
  bool expired_ = false;
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_HEALTH_H_
