// Churn distributions: the draws have the mean and median the parameters promise.
#include "sim/hosts/distribution.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

namespace skillnode::sim {
namespace {

std::vector<double> Draws(const scenario::DistributionSpec& spec, size_t n, uint64_t seed) {
  hosts::DurationDistribution d(spec);
  transport::Rng rng(seed);
  std::vector<double> out(n);
  for (double& v : out) v = d.SampleSeconds(rng);
  return out;
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double Median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

TEST_CASE("Weibull draws have the requested mean and the median lambda * ln(2)^(1/k)", "[unit]") {
  scenario::DistributionSpec spec{scenario::DistributionKind::kWeibull, 10000, 0.5,
                                  hosts::WeibullScaleForMean(0.5, 10000)};
  CHECK(spec.scale_s == Approx(5000));
  const auto draws = Draws(spec, 200000, 1);
  // The standard deviation is 2.24 means; 200,000 draws give a standard error of 0.5%.
  CHECK(Mean(draws) == Approx(10000).epsilon(0.03));
  CHECK(Median(draws) == Approx(5000 * 0.480453).epsilon(0.03));
  CHECK(*std::min_element(draws.begin(), draws.end()) > 0);
}

TEST_CASE("exponential draws have the requested mean; constant ones are the mean", "[unit]") {
  const auto draws = Draws({scenario::DistributionKind::kExponential, 60, 1, 60}, 100000, 2);
  CHECK(Mean(draws) == Approx(60).epsilon(0.02));
  CHECK(Median(draws) == Approx(60 * 0.693147).epsilon(0.02));
  const auto constant = Draws({scenario::DistributionKind::kConstant, 7, 1, 7}, 10, 3);
  CHECK(std::all_of(constant.begin(), constant.end(), [](double v) { return v == 7; }));
}

TEST_CASE("the same seed gives the same draws", "[unit]") {
  scenario::DistributionSpec spec{scenario::DistributionKind::kWeibull, 100, 0.7,
                                  hosts::WeibullScaleForMean(0.7, 100)};
  CHECK(Draws(spec, 50, 9) == Draws(spec, 50, 9));
  CHECK(Draws(spec, 50, 9) != Draws(spec, 50, 10));
}

}  // namespace
}  // namespace skillnode::sim
