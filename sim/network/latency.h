// LatencyModel: how long a datagram takes from one simulated host to another.
//
// Four models (LatencySpec): a constant RTT; an RTT drawn uniformly per datagram (which also
// reorders); regions, where every host is placed in a region and the RTT between two hosts
// is the RTT between their regions; or coordinates, where every host also has its own place
// around its region's point and its own access delay, so no two pairs of hosts are alike (in
// the manner of OverSim's SimpleUnderlay, whose hosts sit at measured 2-D coordinates). A
// datagram takes half the RTT, times an optional jitter.
//
// The built-in region matrix (six regions) holds approximate round-trip times between AWS
// regions: the averages of the "Latency Between AWS Global Regions" table (2017), rounded to
// whole milliseconds. That table has no figure for two hosts in one region; the diagonal uses
// the table's RTT between neighbouring regions instead (N. California-Oregon 19.5 ms and
// Ireland-Frankfurt 19.6 ms: 20 ms; Tokyo-Seoul 31.4 ms: 31 ms for the Asian regions; 20 ms
// assumed for Sao Paulo). The figures are approximate and only set the scale of the delays.
#ifndef SKILLNODE_SIM_NETWORK_LATENCY_H_
#define SKILLNODE_SIM_NETWORK_LATENCY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/scenario.h"
#include "transport/clock.h"
#include "transport/rng.h"

namespace skillnode::sim::network {

// Regions in one scenario at most (a host's region is one byte).
constexpr size_t kRegionsMax = 64;

// The built-in regions, in matrix order.
std::vector<std::string> BuiltinRegionNames();

// For model `regions`: fills in the built-in regions or matrix where the spec leaves them out
// (regions named but no matrix: the built-in rows and columns of those names) and checks the
// result. Returns an error text, or nullopt when the spec is usable.
std::optional<std::string> CompleteRegions(scenario::LatencySpec& spec);
// The index of region `name`, or -1.
int RegionIndex(const scenario::LatencySpec& spec, std::string_view name);

class LatencyModel {
 public:
  explicit LatencyModel(const scenario::LatencySpec& spec) : spec_(spec) {}

  // Places hosts [0, slots) in regions by weight, and for coordinates at their own points.
  // Deterministic for one Rng state; the region draws come first, as they always have.
  void Place(size_t slots, transport::Rng& rng);
  // 0 for the models without regions.
  uint8_t region(uint32_t slot) const { return regions_.empty() ? 0 : regions_[slot]; }

  // One datagram's delay from `from` to `to`.
  transport::Duration OneWay(uint32_t from, uint32_t to, transport::Rng& rng) const;
  // The RTT between two hosts before jitter (uniform: the middle of its range), in ms.
  double BaseRttMs(uint32_t from, uint32_t to) const;
  // No delay OneWay gives is shorter than this.
  transport::Duration MinOneWay() const;
  // The mean RTT between two random hosts (by region weight; coordinates: over 100,000 random
  // pairs of placed hosts), in ms: the "RTT" of a hop.
  double MeanRttMs() const;
  const scenario::LatencySpec& spec() const { return spec_; }

 private:
  double CoordinateRttMs(uint32_t from, uint32_t to) const;

  scenario::LatencySpec spec_;
  std::vector<uint8_t> regions_;
  // coordinates: each host's point (dimensions_ numbers per host) and access delay.
  size_t dimensions_ = 0;
  std::vector<float> points_;
  std::vector<float> access_ms_;
  double sampled_mean_rtt_ms_ = 0;
};

}  // namespace skillnode::sim::network

#endif  // SKILLNODE_SIM_NETWORK_LATENCY_H_
