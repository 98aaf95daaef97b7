// The networks the record tests run (records_test.cpp, capability_get_test.cpp), as scenario
// YAML up to their `records` block, which each test appends with its own seed and any further
// block; and what the gets in each must find.
#ifndef SKILLNODE_TESTS_SIM_RECORDS_SCENARIOS_H_
#define SKILLNODE_TESTS_SIM_RECORDS_SCENARIOS_H_

#include <catch2/catch.hpp>
#include <string>

#include "sim/report/summary.h"

namespace skillnode::sim::testing {

// 60 nodes (k 8, alpha 3) at a constant 50 ms round trip, 20 lookups.
inline std::string StaticRecordsNetwork(int seed) {
  return "\nseed: " + std::to_string(seed) + R"(
nodes: 60
kademlia: {k: 8, alpha: 3}
network: {latency: {model: constant, rtt_ms: 50}}
workload: {lookups: 20, lookup_rate_per_s: 10, measure_s: 120, drain_s: 30}
)";
}

// 50 nodes joining 50 ms apart over region latencies with 1 % loss, Weibull sessions (shape 0.5)
// of 600 s on average whose nodes come back empty, a lookup a minute per node.
inline std::string ChurningRecordsNetwork(int seed) {
  return "\nseed: " + std::to_string(seed) + R"(
nodes: 50
kademlia: {k: 8, alpha: 3}
network:
  build: join
  join_interval_ms: 50
  latency: {model: regions}
  loss: 0.01
churn:
  session: {distribution: weibull, shape: 0.5, mean_s: 600}
  rejoin: lose
workload: {lookup_interval_s: 60, warmup_s: 120, measure_s: 240, drain_s: 30}
)";
}

// A run of the static network: every record was published, and every get (over 150 of them,
// all checked) found the record it asked for, with no unknown or rejected record.
inline void CheckEveryStaticGetFound(const report::RunSummary& s) {
  CHECK(s.records_status == "simulated");
  CHECK(s.records.publishes_done == s.records.published);
  CHECK(s.records.gets_checked > 150);
  CHECK(s.records.gets_checked == s.records.gets);
  CHECK(s.records.records_unknown == 0);
  CHECK(s.records.records_rejected == 0);
  REQUIRE(s.records_available_rate);
  CHECK(*s.records_available_rate == 1.0);
}

// A run of the churning network: nodes crashed, over 100 gets were checked, no record was
// unknown and every live record was found.
inline void CheckEveryChurnGetFound(const report::RunSummary& s) {
  CHECK(s.churn.crashes > 0);
  CHECK(s.records.gets_checked > 100);
  CHECK(s.records.records_unknown == 0);
  REQUIRE(s.records_available_rate);
  CHECK(*s.records_available_rate == 1.0);
}

}  // namespace skillnode::sim::testing

#endif  // SKILLNODE_TESTS_SIM_RECORDS_SCENARIOS_H_
