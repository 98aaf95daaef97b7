// The coordinates latency model: regions embedded in a Euclidean space, every host at its
// own point with its own access delay.
#include "sim/network/latency.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "sim/network/embedding.h"

namespace skillnode::sim {
namespace {

double Distance(const std::vector<double>& a, const std::vector<double>& b) {
  double squares = 0;
  for (size_t d = 0; d < a.size(); ++d) squares += (a[d] - b[d]) * (a[d] - b[d]);
  return std::sqrt(squares);
}

TEST_CASE("the embedding reproduces distances that are Euclidean", "[unit]") {
  // Four points of a 30 x 40 rectangle: the diagonals are 50.
  const std::vector<std::vector<double>> rtt = {
      {0, 30, 50, 40}, {30, 0, 40, 50}, {50, 40, 0, 30}, {40, 50, 30, 0}};
  const std::vector<std::vector<double>> points = network::EmbedRegions(rtt);
  REQUIRE(points.size() == 4);
  REQUIRE(points[0].size() == 2);  // a plane: only two positive eigenvalues
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 4; ++j)
      CHECK(Distance(points[i], points[j]) == Approx(rtt[i][j]).margin(1e-6));
  }
  CHECK(network::EmbedRegions({{0}}).size() == 1);
}

TEST_CASE("Jacobi rotations find a symmetric matrix's eigenvalues", "[unit]") {
  std::vector<double> values;
  std::vector<std::vector<double>> vectors;
  network::SymmetricEigen({{2, 1}, {1, 2}}, values, vectors);
  CHECK(values[0] == Approx(3));
  CHECK(values[1] == Approx(1));
  CHECK(std::abs(vectors[0][0]) == Approx(std::sqrt(0.5)));
}

scenario::LatencySpec CoordinatesSpec() {
  scenario::LatencySpec spec;
  spec.kind = scenario::LatencyKind::kCoordinates;
  REQUIRE_FALSE(network::CompleteRegions(spec));
  return spec;
}

TEST_CASE("with coordinates every pair of hosts has its own RTT, near its regions' RTT", "[unit]") {
  const scenario::LatencySpec spec = CoordinatesSpec();
  network::LatencyModel latency(spec);
  transport::Rng rng(3);
  latency.Place(2000, rng);
  // Hosts in one region still differ from each other (spread and access delays).
  std::vector<double> same_region;
  double region_error = 0;
  size_t pairs = 0;
  for (uint32_t a = 0; a < 200; ++a) {
    for (uint32_t b = a + 1; b < 200; ++b) {
      const double rtt = latency.BaseRttMs(a, b);
      CHECK(rtt >= 4 * spec.access_ms_min);
      CHECK(transport::ToMillis(latency.OneWay(a, b, rng)) == Approx(rtt / 2).margin(0.001));
      CHECK(latency.BaseRttMs(b, a) == Approx(rtt));
      if (latency.region(a) == latency.region(b)) same_region.push_back(rtt);
      region_error += std::abs(rtt - spec.rtt_matrix_ms[latency.region(a)][latency.region(b)]);
      ++pairs;
    }
  }
  REQUIRE(same_region.size() > 100);
  const auto [low, high] = std::minmax_element(same_region.begin(), same_region.end());
  CHECK(*high - *low > 20);
  // A 2-D embedding of six regions is approximate; the per-host spread adds to it.
  CHECK(region_error / static_cast<double>(pairs) < 60);
  CHECK(latency.MeanRttMs() > 120);
  CHECK(latency.MeanRttMs() < 200);
  CHECK(transport::ToMillis(latency.MinOneWay()) == Approx(2 * spec.access_ms_min));
}

TEST_CASE("coordinates place hosts the same way for the same seed", "[unit]") {
  const scenario::LatencySpec spec = CoordinatesSpec();
  network::LatencyModel a(spec), b(spec);
  transport::Rng ra(9), rb(9);
  a.Place(500, ra);
  b.Place(500, rb);
  for (uint32_t s = 0; s + 1 < 500; s += 7) CHECK(a.BaseRttMs(s, s + 1) == b.BaseRttMs(s, s + 1));
  CHECK(a.MeanRttMs() == b.MeanRttMs());
  // The region draws come first, as with model regions: the same hosts in the same regions.
  scenario::LatencySpec regions_spec = spec;
  regions_spec.kind = scenario::LatencyKind::kRegions;
  network::LatencyModel regions(regions_spec);
  transport::Rng rr(9);
  regions.Place(500, rr);
  for (uint32_t s = 0; s < 500; ++s) CHECK(regions.region(s) == a.region(s));
}

}  // namespace
}  // namespace skillnode::sim
