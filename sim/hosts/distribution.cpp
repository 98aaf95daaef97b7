#include "sim/hosts/distribution.h"

#include <algorithm>
#include <cmath>

namespace skillnode::sim::hosts {
namespace {

// Draws below this are rounded up: a zero-length session would leave and join at one instant.
constexpr double kSampleMinS = 1e-3;

}  // namespace

double WeibullScaleForMean(double shape, double mean) { return mean / std::tgamma(1 + 1 / shape); }

double DurationDistribution::SampleSeconds(transport::Rng& rng) const {
  // 1 - U lies in (0, 1], so the logarithm is finite.
  const double tail = -std::log(1.0 - rng.NextDouble());
  double value = spec_.mean_s;
  switch (spec_.kind) {
    case scenario::DistributionKind::kConstant:
      break;
    case scenario::DistributionKind::kExponential:
      value = spec_.mean_s * tail;
      break;
    case scenario::DistributionKind::kWeibull:
      value = spec_.scale_s * std::pow(tail, 1 / spec_.shape);
      break;
  }
  return std::max(value, kSampleMinS);
}

}  // namespace skillnode::sim::hosts
