#include "discovery/skillcenter/circuit_breaker.h"

#include <algorithm>

namespace skillnode::discovery::skillcenter {

CircuitBreaker::CircuitBreaker(const BreakerConfig& config)
    : config_(config), backoff_(config.backoff_initial) {}

bool CircuitBreaker::Allow(transport::TimePoint now) {
  switch (state_) {
    case State::kClosed:
      return true;
    case State::kHalfOpen:
      return false;  // the trial is still running
    case State::kOpen:
      if (now < retry_at_) return false;
      state_ = State::kHalfOpen;
      return true;
  }
  return true;
}

void CircuitBreaker::Succeeded() {
  state_ = State::kClosed;
  failures_in_a_row_ = 0;
  backoff_ = config_.backoff_initial;
}

void CircuitBreaker::Failed(transport::TimePoint now) {
  ++failures_in_a_row_;
  // A failure of a call that went while the breaker was closed, or of the trial: open again.
  // Calls that were already running when it opened may fail later; each pushes the retry out.
  state_ = State::kOpen;
  retry_at_ = now + backoff_;
  backoff_ = std::min(backoff_ * 2, config_.backoff_max);
}

std::string_view BreakerStateName(CircuitBreaker::State state) {
  switch (state) {
    case CircuitBreaker::State::kClosed:
      return "closed";
    case CircuitBreaker::State::kOpen:
      return "open";
    case CircuitBreaker::State::kHalfOpen:
      return "half-open";
  }
  return "closed";
}

}  // namespace skillnode::discovery::skillcenter
