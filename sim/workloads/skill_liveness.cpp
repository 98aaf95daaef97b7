// SkillLiveness (skill_liveness.h).
#include "sim/workloads/skill_liveness.h"

#include <algorithm>
#include <cassert>

namespace skillnode::sim::workloads {

SkillLiveness::SkillLiveness(size_t skills, transport::Duration republish, uint32_t ttl_seconds)
    : live_after_stop_(transport::Seconds(ttl_seconds) -
                       std::min<transport::Duration>(republish, transport::Seconds(ttl_seconds))),
      skills_(skills) {}

void SkillLiveness::Published(size_t skill, uint32_t incarnation) {
  State& state = skills_[skill];
  if (state.published && state.available_from != transport::kTimeNever) {
    // The earlier incarnation stopped before this one joined (Stopped set its end).
    assert(state.expected_until != transport::kTimeNever);
    state.tail_until = std::max(state.tail_until, state.expected_until);
  }
  state = State{.incarnation = incarnation, .published = true, .tail_until = state.tail_until};
}

bool SkillLiveness::MarkAvailable(size_t skill, uint32_t incarnation, transport::TimePoint at) {
  State& state = skills_[skill];
  if (state.incarnation != incarnation || state.available_from != transport::kTimeNever) {
    return false;
  }
  state.available_from = at;
  return true;
}

void SkillLiveness::Stopped(size_t skill, transport::TimePoint now) {
  State& state = skills_[skill];
  if (!state.published || state.expected_until != transport::kTimeNever) return;
  state.expected_until =
      state.available_from == transport::kTimeNever ? now : now + live_after_stop_;
}

bool SkillLiveness::Live(size_t skill, transport::TimePoint now) const {
  const State& state = skills_[skill];
  return (state.available_from <= now && now < state.expected_until) || now < state.tail_until;
}

}  // namespace skillnode::sim::workloads
