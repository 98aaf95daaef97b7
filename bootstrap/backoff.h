// Backoff: exponential back-off with jitter for retrying bootstrap.
//
// The n-th delay (n = 0, 1, ...) is initial * multiplier^n, capped at `max`, then scaled by a
// factor drawn uniformly from [1 - jitter, 1 + jitter] and capped at `max` again. Jitter keeps
// nodes restarted together (a power cut, a redeploy) from retrying in lockstep. The random
// factor comes from the injected Rng, so the schedule is reproducible from a seed. Pure: no
// clock, no I/O.
#ifndef SKILLNODE_BOOTSTRAP_BACKOFF_H_
#define SKILLNODE_BOOTSTRAP_BACKOFF_H_

#include "transport/clock.h"
#include "transport/rng.h"

namespace skillnode::bootstrap {

struct BackoffConfig {
  // First retry after about a second: long enough for a peer that is starting too.
  transport::Duration initial = transport::Seconds(1);
  // At most five minutes between attempts, so a node finds the network soon after it is back.
  transport::Duration max = transport::Seconds(5 * 60);
  double multiplier = 2.0;
  // +-25 %: spreads simultaneous retries over half the interval.
  double jitter = 0.25;
};

class Backoff {
 public:
  explicit Backoff(const BackoffConfig& config) : config_(config) {}

  // The delay before the next attempt; each call moves one step up the schedule.
  transport::Duration Next(transport::Rng& rng);
  // After a success: the next failure starts again from `initial`.
  void Reset() { step_ = 0; }
  int step() const { return step_; }
  const BackoffConfig& config() const { return config_; }

 private:
  BackoffConfig config_;
  int step_ = 0;
};

}  // namespace skillnode::bootstrap

#endif  // SKILLNODE_BOOTSTRAP_BACKOFF_H_
