// SeedGroups: a sweep over `seed` read as repeated runs. The points that differ only in their
// seed form a group; for each group every headline figure gets its mean over the seeds and a
// 95 % confidence interval (Student's t on the per-seed values), as published simulation
// studies report them (Heep 2010: 20 runs, 95 % intervals).
#ifndef SKILLNODE_SIM_REPORT_SEED_GROUPS_H_
#define SKILLNODE_SIM_REPORT_SEED_GROUPS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/report/summary.h"
#include "sim/scenario/scenario.h"

namespace skillnode::sim::report {

// Mean, 95 % interval half-width and range of one figure over a group's seeds.
struct Estimate {
  double mean = 0;
  double ci95 = 0;  // half-width; 0 with a single seed
  double min = 0;
  double max = 0;
};

// The figures a group reports, by name, in this order.
const std::vector<std::string_view>& GroupFigureNames();
// One figure of one run, by a name GroupFigureNames lists.
double GroupFigure(const RunSummary& summary, std::string_view name);

struct SeedGroup {
  std::vector<scenario::SweptValue> swept;  // every swept value but the seed
  std::vector<size_t> points;               // indices into the run's points
  std::vector<Estimate> figures;            // in GroupFigureNames order
};

// Two-sided 95 % quantile of Student's t with `dof` degrees of freedom (1.96 beyond 30).
double StudentT95(size_t dof);
Estimate Estimate95(const std::vector<double>& values);

// Empty unless the plan sweeps `seed`. Groups come in the order of their first point.
std::vector<SeedGroup> GroupBySeed(const scenario::ScenarioPlan& plan,
                                   const std::vector<PointResult>& points);

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_SEED_GROUPS_H_
