// CircuitBreaker: whether to ask a remote service now, after how it answered before.
//
// Closed: every call goes through. A failure opens it for the current back-off, which starts at
// `backoff_initial` and doubles with every failure in a row up to `backoff_max`; while open,
// calls are skipped at once. When the back-off has passed, one trial call goes through
// (half-open) while the others are still skipped; its success closes the breaker and resets the
// back-off, its failure opens it again for the next, longer back-off. So a service that is down,
// slow or answering garbage costs one timeout, then nothing until its next trial.
//
// Pure: the caller passes `now`. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SKILLCENTER_CIRCUIT_BREAKER_H_
#define SKILLNODE_DISCOVERY_SKILLCENTER_CIRCUIT_BREAKER_H_

#include <cstdint>
#include <string_view>

#include "transport/clock.h"

namespace skillnode::discovery::skillcenter {

struct BreakerConfig {
  transport::Duration backoff_initial = transport::Seconds(5);
  transport::Duration backoff_max = transport::Seconds(300);
};

class CircuitBreaker {
 public:
  enum class State { kClosed, kOpen, kHalfOpen };

  explicit CircuitBreaker(const BreakerConfig& config);

  // True when a call may go now; in the open state past the back-off this starts the one trial.
  bool Allow(transport::TimePoint now);
  void Succeeded();
  void Failed(transport::TimePoint now);

  State state() const { return state_; }
  // When the next trial may go (open state).
  transport::TimePoint retry_at() const { return retry_at_; }
  uint32_t failures_in_a_row() const { return failures_in_a_row_; }

 private:
  BreakerConfig config_;
  State state_ = State::kClosed;
  transport::Duration backoff_{};
  transport::TimePoint retry_at_ = transport::kTimeZero;
  uint32_t failures_in_a_row_ = 0;
};

std::string_view BreakerStateName(CircuitBreaker::State state);  // closed, open, half-open

}  // namespace skillnode::discovery::skillcenter

#endif  // SKILLNODE_DISCOVERY_SKILLCENTER_CIRCUIT_BREAKER_H_
