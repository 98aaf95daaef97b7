// The NAT census in the report (report.h): ReachCensus and the client counters of the node
// totals as the "reach" object of summary.json, with the shares of contacts behind NATs
// (docs/simulation.md "Nodes behind NATs"). nlohmann::json throws: the callers (report.cpp)
// catch.
#ifndef SKILLNODE_SIM_REPORT_REACH_REPORT_H_
#define SKILLNODE_SIM_REPORT_REACH_REPORT_H_

#include <nlohmann/json.hpp>

#include "sim/report/node_totals.h"
#include "sim/report/reach_census.h"

namespace skillnode::sim::report {

// Each share is 0 when there is nothing to divide by.
nlohmann::json ReachJson(const ReachCensus& census, const NodeTotals& totals);

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_REACH_REPORT_H_
