// Duration distributions for churn: how long a node stays online, and offline.
//
// Sampled by inverse transform from the simulation's Rng (never <random>, whose
// distributions differ between standard libraries), so a seed gives the same sessions
// everywhere. Weibull(shape k, scale lambda) has mean lambda * Gamma(1 + 1/k); shape 0.5 is
// the heavy-tailed session length measured in deployed P2P systems (Stutzbach & Rejaie 2006).
#ifndef SKILLNODE_SIM_HOSTS_DISTRIBUTION_H_
#define SKILLNODE_SIM_HOSTS_DISTRIBUTION_H_

#include "sim/scenario/scenario.h"
#include "transport/rng.h"

namespace skillnode::sim::hosts {

// The Weibull scale whose mean is `mean` for this shape.
double WeibullScaleForMean(double shape, double mean);

class DurationDistribution {
 public:
  explicit DurationDistribution(const scenario::DistributionSpec& spec) : spec_(spec) {}

  // One draw, in seconds (> 0).
  double SampleSeconds(transport::Rng& rng) const;
  double mean_s() const { return spec_.mean_s; }

 private:
  scenario::DistributionSpec spec_;
};

}  // namespace skillnode::sim::hosts

#endif  // SKILLNODE_SIM_HOSTS_DISTRIBUTION_H_
