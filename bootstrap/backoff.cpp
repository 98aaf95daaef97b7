#include "bootstrap/backoff.h"

#include <algorithm>
#include <cmath>

namespace skillnode::bootstrap {

transport::Duration Backoff::Next(transport::Rng& rng) {
  const double initial = static_cast<double>(config_.initial.count());
  const double max = static_cast<double>(config_.max.count());
  // Computed in floating point and capped before it can overflow.
  const double base = std::min(max, initial * std::pow(config_.multiplier, step_));
  if (base < max) ++step_;
  const double jitter = std::clamp(config_.jitter, 0.0, 1.0);
  const double factor = 1.0 - jitter + 2.0 * jitter * rng.NextDouble();
  const double delay = std::min(max, base * factor);
  return transport::Duration(static_cast<transport::Duration::rep>(delay));
}

}  // namespace skillnode::bootstrap
