// The words workload in the report (report.h): its summary as the "words" object of
// summary.json, and words_queries.csv, one row per measured query that answered (docs/
// simulation.md "Word search"). nlohmann::json throws: the callers (report.cpp) catch.
#ifndef SKILLNODE_SIM_REPORT_WORDS_REPORT_H_
#define SKILLNODE_SIM_REPORT_WORDS_REPORT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/report/summary.h"
#include "transport/result.h"

namespace skillnode::sim::report {

nlohmann::json WordsJson(const workloads::WordSummary& words);

// Writes `dir`/words_queries.csv when a point ran the words workload; true when it wrote none.
[[nodiscard]] transport::Result<bool> WriteWordQueries(const std::string& dir,
                                                       const std::vector<PointResult>& points);

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_WORDS_REPORT_H_
