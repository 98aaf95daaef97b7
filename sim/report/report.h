// Report: what a run writes to --out — summary.json, lookups.csv, record_misses.csv and the
// plots.
//
// summary.json holds the figures of the whole run (a sweep's points pooled) and, for a
// sweep, "points": one object per point with its swept values and the same keys. Keys that
// docs/simulation.md promises: nodes, lookups, success_rate, oracle_mismatches, hops_mean,
// hops_p99, messages_per_lookup, latency_ms_p50, latency_ms_p99, records_available_rate
// (only when records were simulated), trace_hash, sim_seconds, wall_seconds, peak_rss_mb.
// nlohmann::json throws; it is used only inside this file's functions, which catch.
#ifndef SKILLNODE_SIM_REPORT_REPORT_H_
#define SKILLNODE_SIM_REPORT_REPORT_H_

#include <string>
#include <vector>

#include "sim/report/summary.h"
#include "sim/scenario/scenario.h"
#include "transport/result.h"

namespace skillnode::sim::report {

// The whole run: the points' summaries combined (lookups pooled, trace hashes chained in
// point order, times added, the largest node count).
RunSummary CombineRuns(const std::vector<PointResult>& points, double wall_seconds);

// summary.json's text.
[[nodiscard]] transport::Result<std::string> SummaryJson(const scenario::ScenarioPlan& plan,
                                                         const std::vector<PointResult>& points,
                                                         const RunSummary& total);

// Writes summary.json and lookups.csv into `dir` (created if missing), and, when records were
// simulated, record_misses.csv: one row per measured get that missed its record.
[[nodiscard]] transport::Result<bool> WriteReport(const std::string& dir,
                                                  const scenario::ScenarioPlan& plan,
                                                  const std::vector<PointResult>& points,
                                                  const RunSummary& total);

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_REPORT_H_
