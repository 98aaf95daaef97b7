#include "sim/report/seed_groups.h"

#include <algorithm>
#include <cmath>

namespace skillnode::sim::report {
namespace {

constexpr std::string_view kSeedKey = "seed";

}  // namespace

namespace {

double HeepFailureRate(const RunSummary& s) {
  const workloads::LookupSummary& l = s.lookups;
  return l.heep_lookups == 0
             ? 0
             : static_cast<double>(l.heep_failures) / static_cast<double>(l.heep_lookups);
}

double P50OverFloor(const RunSummary& s) {
  return s.latency_floor_ms > 0 ? s.lookups.latency_ms_p50 / s.latency_floor_ms : 0;
}

// Every figure a group reports: its name and how to read it from one run.
struct Figure {
  std::string_view name;
  double (*read)(const RunSummary&);
};
constexpr Figure kFigures[] = {
    {"success_rate", [](const RunSummary& s) { return s.lookups.success_rate; }},
    {"heep_latency_ms_mean", [](const RunSummary& s) { return s.lookups.heep_latency_ms_mean; }},
    {"heep_failure_rate", HeepFailureRate},
    {"reached_rate", [](const RunSummary& s) { return s.lookups.reached_rate; }},
    {"latency_ms_mean", [](const RunSummary& s) { return s.lookups.latency_ms_mean; }},
    {"latency_ms_p50", [](const RunSummary& s) { return s.lookups.latency_ms_p50; }},
    {"latency_ms_p99", [](const RunSummary& s) { return s.lookups.latency_ms_p99; }},
    {"latency_floor_ms", [](const RunSummary& s) { return s.latency_floor_ms; }},
    {"p50_over_floor", P50OverFloor},
    {"hops_mean", [](const RunSummary& s) { return s.lookups.hops_mean; }},
    {"messages_per_lookup", [](const RunSummary& s) { return s.lookups.messages_per_lookup; }},
    {"bytes_per_node_per_s", [](const RunSummary& s) { return s.bytes_per_node_per_s; }},
    {"ip_bytes_per_node_per_s", [](const RunSummary& s) { return s.ip_bytes_per_node_per_s; }},
};

}  // namespace

const std::vector<std::string_view>& GroupFigureNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const Figure& f : kFigures) out.push_back(f.name);
    return out;
  }();
  return names;
}

double GroupFigure(const RunSummary& s, std::string_view name) {
  for (const Figure& f : kFigures) {
    if (f.name == name) return f.read(s);
  }
  return 0;
}

double StudentT95(size_t dof) {
  // Two-sided 95 % (upper 0.975) quantiles for 1..30 degrees of freedom.
  static constexpr double kT[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                    2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                    2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                    2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof == 0) return 0;
  return dof <= 30 ? kT[dof - 1] : 1.960;
}

Estimate Estimate95(const std::vector<double>& values) {
  Estimate e;
  if (values.empty()) return e;
  const auto n = static_cast<double>(values.size());
  double sum = 0;
  for (const double v : values) sum += v;
  e.mean = sum / n;
  e.min = *std::min_element(values.begin(), values.end());
  e.max = *std::max_element(values.begin(), values.end());
  if (values.size() < 2) return e;
  double squares = 0;
  for (const double v : values) squares += (v - e.mean) * (v - e.mean);
  const double sd = std::sqrt(squares / (n - 1));
  e.ci95 = StudentT95(values.size() - 1) * sd / std::sqrt(n);
  return e;
}

std::vector<SeedGroup> GroupBySeed(const scenario::ScenarioPlan& plan,
                                   const std::vector<PointResult>& points) {
  std::vector<SeedGroup> groups;
  if (std::find(plan.swept.begin(), plan.swept.end(), kSeedKey) == plan.swept.end()) {
    return groups;
  }
  const auto same = [](const std::vector<scenario::SweptValue>& a,
                       const std::vector<scenario::SweptValue>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const scenario::SweptValue& x, const scenario::SweptValue& y) {
                        return x.path == y.path && x.value == y.value;
                      });
  };
  for (size_t i = 0; i < points.size(); ++i) {
    std::vector<scenario::SweptValue> others;
    for (const scenario::SweptValue& v : points[i].swept) {
      if (v.path != kSeedKey) others.push_back(v);
    }
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const SeedGroup& g) { return same(g.swept, others); });
    if (group == groups.end()) {
      groups.push_back(SeedGroup{std::move(others), {}, {}});
      group = groups.end() - 1;
    }
    group->points.push_back(i);
  }
  for (SeedGroup& g : groups) {
    for (const Figure& f : kFigures) {
      std::vector<double> values;
      for (const size_t i : g.points) values.push_back(f.read(points[i].summary));
      g.figures.push_back(Estimate95(values));
    }
  }
  return groups;
}

}  // namespace skillnode::sim::report
