// Gets by capability (records.get_by: capability): a record is asked for under the capability
// key of one of its capabilities, which it shares with other records of the pool, and the get is
// a hit when the answer holds it (sim/workloads/record_workload.h).
#include <catch2/catch.hpp>
#include <string>

#include "records_scenarios.h"
#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::RunOne;

// 60 nodes x 2.5 records, 1.5 capabilities each from a pool of 8: about 28 records per
// capability key, several pages of FIND_VALUE answers.
std::string StaticNetwork(const std::string& get_by) {
  return testing::StaticRecordsNetwork(31) + R"(records:
  replication: 3
  records_per_node: 2.5
  republish_s: 600
  gets_per_node_per_min: 2
  capabilities: 8
  get_by: )" +
         get_by + "\n";
}

TEST_CASE("in a static network every get by capability finds the record it asks for", "[sim]") {
  const report::PointResult run = RunOne(StaticNetwork("capability"));
  const report::RunSummary& s = run.summary;
  // 2.5 records per node: the half record is drawn per node (mean 150, sd 3.9).
  CHECK(s.records.published >= 130);
  CHECK(s.records.published <= 170);
  testing::CheckEveryStaticGetFound(s);
}

TEST_CASE("gets by capability ask for other keys than gets by skill id", "[sim]") {
  const report::PointResult by_capability = RunOne(StaticNetwork("capability"));
  const report::PointResult by_skill = RunOne(StaticNetwork("skill"));
  // The same records are published (the capability draws come before the gets) ...
  CHECK(by_skill.summary.records.published == by_capability.summary.records.published);
  REQUIRE(by_skill.summary.records_available_rate);
  CHECK(*by_skill.summary.records_available_rate == 1.0);
  // ... but the FIND_VALUE lookups go to other keys and bring back more records.
  CHECK(by_skill.summary.trace_hash != by_capability.summary.trace_hash);
  const auto find_value = static_cast<size_t>(kademlia::TypeSlot::kFindValue);
  CHECK(by_capability.summary.node_totals.requests_received_by_type[find_value] >
        by_skill.summary.node_totals.requests_received_by_type[find_value]);
}

// Churn at a 600 s mean session, as records_test.cpp's churn case, with gets by capability.
const std::string kChurn = testing::ChurningRecordsNetwork(32) + R"(records:
  replication: 5
  records_per_node: 2.5
  republish_s: 60
  gets_per_node_per_min: 2
  capabilities: 10
  get_by: capability
)";

TEST_CASE("under churn gets by capability find live records and a seed reproduces them", "[sim]") {
  const report::PointResult first = RunOne(kChurn);
  const report::RunSummary& s = first.summary;
  CHECK(s.records.published > 125);  // new nodes publish their own
  // Every live record is found under this churn (0.9 before lookups stopped timing out far
  // peers that were still answering; docs/simulation.md "Registry under churn").
  testing::CheckEveryChurnGetFound(s);
  CHECK(s.records.missed_asked + s.records.missed_near + s.records.missed_far +
            s.records.missed_lost ==
        0);
  // Most checked gets want a skill whose publisher is still up; those are found too.
  CHECK(s.records.gets_checked_publisher_up > s.records.gets_checked / 2);
  CHECK(s.records.gets_checked_publisher_up < s.records.gets_checked);
  REQUIRE(s.records_available_rate_publisher_up);
  CHECK(*s.records_available_rate_publisher_up == 1.0);
  const report::PointResult second = RunOne(kChurn);
  CHECK(second.summary.trace_hash == s.trace_hash);
  CHECK(second.summary.records.gets_found == s.records.gets_found);
}

}  // namespace
}  // namespace skillnode::sim
