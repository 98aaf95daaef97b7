#include "sim/network/latency.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/network/embedding.h"

namespace skillnode::sim::network {
namespace {

constexpr size_t kBuiltinRegions = 6;
constexpr const char* kBuiltinNames[kBuiltinRegions] = {"us-east",      "us-west",      "eu-west",
                                                        "ap-northeast", "ap-southeast", "sa-east"};
// Approximate RTTs in ms; see latency.h for the source. Rows and columns in kBuiltinNames
// order: N. Virginia, N. California, Ireland, Tokyo, Singapore, Sao Paulo.
constexpr double kBuiltinRttMs[kBuiltinRegions][kBuiltinRegions] = {
    {20, 72, 81, 145, 217, 120},    //
    {72, 20, 153, 103, 174, 193},   //
    {81, 153, 20, 212, 239, 191},   //
    {145, 103, 212, 31, 74, 257},   //
    {217, 174, 239, 74, 31, 328},   //
    {120, 193, 191, 257, 328, 20},  //
};

// Pairs of hosts MeanRttMs samples for the coordinates model, from a stream of its own so
// that no other draw moves.
constexpr size_t kMeanRttPairs = 100'000;
constexpr uint64_t kMeanRttSeed = 0x6d65616e727474;

// A standard normal draw (Box-Muller).
double Normal(transport::Rng& rng) {
  const double u = 1.0 - rng.NextDouble();  // (0, 1]
  const double v = rng.NextDouble();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * 3.14159265358979323846 * v);
}

int BuiltinIndex(std::string_view name) {
  for (size_t i = 0; i < kBuiltinRegions; ++i) {
    if (name == kBuiltinNames[i]) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

std::vector<std::string> BuiltinRegionNames() {
  return std::vector<std::string>(std::begin(kBuiltinNames), std::end(kBuiltinNames));
}

std::optional<std::string> CompleteRegions(scenario::LatencySpec& spec) {
  if (spec.regions.empty()) {
    if (!spec.rtt_matrix_ms.empty()) return "rtt_matrix_ms given without regions";
    for (const char* name : kBuiltinNames) spec.regions.push_back(scenario::RegionSpec{name, 1.0});
  }
  const size_t n = spec.regions.size();
  if (n > kRegionsMax) return "at most " + std::to_string(kRegionsMax) + " regions";
  if (spec.rtt_matrix_ms.empty()) {
    std::vector<int> index;
    for (const scenario::RegionSpec& r : spec.regions) {
      index.push_back(BuiltinIndex(r.name));
      if (index.back() < 0) {
        return "'" + r.name + "' is not a built-in region; give rtt_matrix_ms for it";
      }
    }
    spec.rtt_matrix_ms.assign(n, std::vector<double>(n));
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        spec.rtt_matrix_ms[i][j] =
            kBuiltinRttMs[static_cast<size_t>(index[i])][static_cast<size_t>(index[j])];
      }
    }
  }
  if (spec.rtt_matrix_ms.size() != n) return "rtt_matrix_ms needs one row per region";
  double weight = 0;
  for (size_t i = 0; i < n; ++i) {
    weight += spec.regions[i].weight;
    if (spec.rtt_matrix_ms[i].size() != n) return "rtt_matrix_ms needs one column per region";
    for (size_t j = 0; j < i; ++j) {
      if (spec.rtt_matrix_ms[i][j] != spec.rtt_matrix_ms[j][i]) {
        return "rtt_matrix_ms must be symmetric (row " + std::to_string(i) + ", column " +
               std::to_string(j) + ")";
      }
    }
    for (size_t j = 0; j < i; ++j) {
      if (spec.regions[i].name == spec.regions[j].name) {
        return "region '" + spec.regions[i].name + "' is listed twice";
      }
    }
  }
  if (weight <= 0) return "the region weights add up to zero";
  return std::nullopt;
}

int RegionIndex(const scenario::LatencySpec& spec, std::string_view name) {
  for (size_t i = 0; i < spec.regions.size(); ++i) {
    if (spec.regions[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

void LatencyModel::Place(size_t slots, transport::Rng& rng) {
  regions_.clear();
  points_.clear();
  access_ms_.clear();
  if (spec_.kind != scenario::LatencyKind::kRegions &&
      spec_.kind != scenario::LatencyKind::kCoordinates)
    return;
  double total = 0;
  for (const scenario::RegionSpec& r : spec_.regions) total += r.weight;
  regions_.reserve(slots);
  for (size_t s = 0; s < slots; ++s) {
    double draw = rng.NextDouble() * total;
    size_t chosen = 0;
    while (chosen + 1 < spec_.regions.size() && draw >= spec_.regions[chosen].weight) {
      draw -= spec_.regions[chosen].weight;
      ++chosen;
    }
    regions_.push_back(static_cast<uint8_t>(chosen));
  }
  if (spec_.kind != scenario::LatencyKind::kCoordinates) return;
  std::vector<std::vector<double>> centres = EmbedRegions(spec_.rtt_matrix_ms);
  dimensions_ = spec_.dimensions;
  points_.assign(slots * dimensions_, 0.0F);
  access_ms_.assign(slots, 0.0F);
  for (size_t s = 0; s < slots; ++s) {
    const std::vector<double>& centre = centres[regions_[s]];
    for (size_t d = 0; d < dimensions_; ++d) {
      const double base = d < centre.size() ? centre[d] : 0.0;
      points_[s * dimensions_ + d] = static_cast<float>(base + spec_.spread_ms * Normal(rng));
    }
    access_ms_[s] = static_cast<float>(
        spec_.access_ms_min + rng.NextDouble() * (spec_.access_ms_max - spec_.access_ms_min));
  }
  transport::Rng pairs(kMeanRttSeed);
  double sum = 0;
  for (size_t i = 0; i < kMeanRttPairs && slots > 1; ++i) {
    const auto a = static_cast<uint32_t>(pairs.Below(slots));
    auto b = static_cast<uint32_t>(pairs.Below(slots - 1));
    if (b >= a) ++b;
    sum += CoordinateRttMs(a, b);
  }
  sampled_mean_rtt_ms_ = slots > 1 ? sum / static_cast<double>(kMeanRttPairs) : 0;
}

double LatencyModel::CoordinateRttMs(uint32_t from, uint32_t to) const {
  double squares = 0;
  const float* a = &points_[size_t{from} * dimensions_];
  const float* b = &points_[size_t{to} * dimensions_];
  for (size_t d = 0; d < dimensions_; ++d) {
    const double delta = static_cast<double>(a[d]) - b[d];
    squares += delta * delta;
  }
  return std::sqrt(squares) + 2.0 * (static_cast<double>(access_ms_[from]) + access_ms_[to]);
}

double LatencyModel::BaseRttMs(uint32_t from, uint32_t to) const {
  switch (spec_.kind) {
    case scenario::LatencyKind::kConstant:
      return spec_.rtt_ms;
    case scenario::LatencyKind::kUniform:
      return (spec_.rtt_min_ms + spec_.rtt_max_ms) / 2;
    case scenario::LatencyKind::kRegions:
      return spec_.rtt_matrix_ms[region(from)][region(to)];
    case scenario::LatencyKind::kCoordinates:
      return CoordinateRttMs(from, to);
  }
  return spec_.rtt_ms;
}

transport::Duration LatencyModel::OneWay(uint32_t from, uint32_t to, transport::Rng& rng) const {
  double rtt_ms = spec_.rtt_ms;
  if (spec_.kind == scenario::LatencyKind::kUniform) {
    rtt_ms = spec_.rtt_min_ms + rng.NextDouble() * (spec_.rtt_max_ms - spec_.rtt_min_ms);
  } else if (spec_.kind == scenario::LatencyKind::kRegions) {
    rtt_ms = spec_.rtt_matrix_ms[region(from)][region(to)];
  } else if (spec_.kind == scenario::LatencyKind::kCoordinates) {
    rtt_ms = CoordinateRttMs(from, to);
  }
  double one_way_us = rtt_ms * 500.0;
  if (spec_.jitter > 0) one_way_us *= 1.0 + spec_.jitter * (2.0 * rng.NextDouble() - 1.0);
  return transport::Duration(static_cast<int64_t>(std::llround(one_way_us)));
}

transport::Duration LatencyModel::MinOneWay() const {
  double rtt_ms = spec_.rtt_ms;
  if (spec_.kind == scenario::LatencyKind::kUniform) {
    rtt_ms = spec_.rtt_min_ms;
  } else if (spec_.kind == scenario::LatencyKind::kRegions) {
    rtt_ms = std::numeric_limits<double>::infinity();
    for (const std::vector<double>& row : spec_.rtt_matrix_ms) {
      for (const double entry : row) rtt_ms = std::min(rtt_ms, entry);
    }
    if (!std::isfinite(rtt_ms)) rtt_ms = 0;
  } else if (spec_.kind == scenario::LatencyKind::kCoordinates) {
    rtt_ms = 4.0 * spec_.access_ms_min;  // both hosts' access delays, both ways
  }
  const double one_way_us = rtt_ms * 500.0 * (1.0 - std::max(0.0, spec_.jitter));
  return transport::Duration(std::max<int64_t>(0, static_cast<int64_t>(std::floor(one_way_us))));
}

double LatencyModel::MeanRttMs() const {
  switch (spec_.kind) {
    case scenario::LatencyKind::kConstant:
      return spec_.rtt_ms;
    case scenario::LatencyKind::kUniform:
      return (spec_.rtt_min_ms + spec_.rtt_max_ms) / 2;
    case scenario::LatencyKind::kCoordinates:
      return sampled_mean_rtt_ms_;
    case scenario::LatencyKind::kRegions:
      break;
  }
  double total = 0, weighted = 0;
  for (size_t i = 0; i < spec_.regions.size(); ++i) {
    for (size_t j = 0; j < spec_.regions.size(); ++j) {
      const double w = spec_.regions[i].weight * spec_.regions[j].weight;
      total += w;
      weighted += w * spec_.rtt_matrix_ms[i][j];
    }
  }
  return weighted / total;
}

}  // namespace skillnode::sim::network
