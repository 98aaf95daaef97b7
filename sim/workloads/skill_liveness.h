// SkillLiveness: whether each skill of the word workload (word_workload.h) should be live, by
// RecordWorkload's rule per skill: from the moment its first publish by an incarnation of its
// publisher finished (a STORE acknowledged) while that incarnation runs, and for
// TTL - republish_s after the incarnation stopped (the copies of its last republish), including
// the tail of an earlier incarnation when the publisher rejoined.
//
// Not thread-safe: the workload changes it on the control side only (word_workload.h "Lanes").
#ifndef SKILLNODE_SIM_WORKLOADS_SKILL_LIVENESS_H_
#define SKILLNODE_SIM_WORKLOADS_SKILL_LIVENESS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "transport/clock.h"

namespace skillnode::sim::workloads {

class SkillLiveness {
 public:
  // `skills` skills, none published; records live `ttl_seconds` and are republished every
  // `republish`.
  SkillLiveness(size_t skills, transport::Duration republish, uint32_t ttl_seconds);

  // Incarnation `incarnation` of `skill`'s publisher publishes it (it joined): what an earlier
  // incarnation made available stays live for its tail.
  void Published(size_t skill, uint32_t incarnation);
  // The first publish of `skill` by `incarnation` finished at `at`. False (nothing changes) when
  // `incarnation` is no longer the publisher's or its first publish was marked already.
  bool MarkAvailable(size_t skill, uint32_t incarnation, transport::TimePoint at);
  // `skill`'s publisher stopped at `now`: a skill it made available stays live for
  // TTL - republish (the copies of its last republish), one it had not yet ends now.
  void Stopped(size_t skill, transport::TimePoint now);

  bool Live(size_t skill, transport::TimePoint now) const;
  // The incarnation that published `skill` last (0: none yet).
  uint32_t incarnation(size_t skill) const { return skills_[skill].incarnation; }
  size_t size() const { return skills_.size(); }

 private:
  struct State {
    uint32_t incarnation = 0;
    bool published = false;  // by the running (or last) incarnation
    transport::TimePoint available_from = transport::kTimeNever;
    transport::TimePoint expected_until = transport::kTimeNever;
    transport::TimePoint tail_until = transport::kTimeZero;  // an earlier incarnation's
  };

  transport::Duration live_after_stop_;  // TTL - republish, at least 0
  std::vector<State> skills_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_SKILL_LIVENESS_H_
