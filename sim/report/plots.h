// Plots: PNG charts of a run, drawn by gnuplot (Debian's gnuplot-nox) in a subprocess.
//
// For every run: latency_cdf.png (CDF of lookup latency) and hops_histogram.png (share of
// lookups per hop count), one curve per point (at most kCurvesMax points, evenly chosen).
// For a sweep: success_vs_<x>.png and hops_vs_<x>.png against the plot's x parameter (the
// first swept key unless `plot.x` says otherwise), one line per value of `plot.series`.
// For a churn run: success_over_time.png (per minute of the measured window). For a sweep
// over seeds: latency_vs_bandwidth.png, each group of seeds (seed_groups.h) as one point with
// its 95 % intervals, beside Heep's (2010) published points. The data
// (*.dat) and scripts (*.gp) stay next to the PNGs, so a plot can be redrawn or restyled.
#ifndef SKILLNODE_SIM_REPORT_PLOTS_H_
#define SKILLNODE_SIM_REPORT_PLOTS_H_

#include <string>
#include <vector>

#include "sim/report/summary.h"
#include "sim/scenario/scenario.h"
#include "transport/result.h"

namespace skillnode::sim::report {

// Writes the data and scripts into `dir` and runs gnuplot there; returns the PNG names.
// Fails (kNotFound) when gnuplot cannot be run, (kIo) when it reports an error.
[[nodiscard]] transport::Result<std::vector<std::string>> WritePlots(
    const std::string& dir, const scenario::ScenarioPlan& plan,
    const std::vector<PointResult>& points);

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_PLOTS_H_
