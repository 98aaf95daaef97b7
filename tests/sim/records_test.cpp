// Simulated hosts run the real SkillDht: records are published, republished and fetched, and
// every get is checked against the records that should exist (sim/workloads/record_workload.h).
#include <catch2/catch.hpp>
#include <string>

#include "records_scenarios.h"
#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::RunOne;

const std::string kStatic =
    testing::StaticRecordsNetwork(21) +
    "records: {replication: 3, records_per_node: 1, republish_s: 600, gets_per_node_per_min: 2}\n";

TEST_CASE("in a static network every get finds the record it asks for", "[sim]") {
  const report::PointResult run = RunOne(kStatic);
  const report::RunSummary& s = run.summary;
  CHECK(s.records.published == 60);
  testing::CheckEveryStaticGetFound(s);
  CHECK(s.node_totals.requests_received_by_type[static_cast<size_t>(kademlia::TypeSlot::kStore)] >
        0);
}

TEST_CASE("each node's verified-record table spares second checks and changes nothing else",
          "[sim]") {
  const std::string network = testing::StaticRecordsNetwork(21);
  const std::string gets = "republish_s: 600, gets_per_node_per_min: 2}\n";
  const report::PointResult with_table =
      RunOne(network + "records: {verified_records_max: 64, " + gets);
  const report::PointResult without =
      RunOne(network + "records: {verified_records_max: 0, " + gets);
  const report::NodeTotals& a = with_table.summary.node_totals;
  const report::NodeTotals& b = without.summary.node_totals;
  // Without a table every copy is checked in full; with one, the copies from a get's other
  // holders are found in it.
  CHECK(b.records_verified_again == 0);
  CHECK(a.records_verified_again > 0);
  CHECK(a.records_verified + a.records_verified_again == b.records_verified);
  CHECK(with_table.summary.trace_hash == without.summary.trace_hash);
}

const std::string kChurn =
    testing::ChurningRecordsNetwork(22) +
    "records: {replication: 5, records_per_node: 1, republish_s: 60, gets_per_node_per_min: 2}\n";

TEST_CASE("under churn records stay available and a seed reproduces the gets", "[sim]") {
  const report::PointResult first = RunOne(kChurn);
  const report::RunSummary& s = first.summary;
  CHECK(s.records.published > 50);      // new nodes publish their own
  testing::CheckEveryChurnGetFound(s);  // 0.9 available before the lookup timeout fix
  // Its lanes on two threads (record_workload.h): the same run.
  const report::PointResult second = RunOne(kChurn, {}, 2);
  CHECK(second.summary.threads == 2);
  CHECK(second.summary.trace_hash == s.trace_hash);
  CHECK(second.summary.records.gets_found == s.records.gets_found);
}

std::string WithAdversaries(const std::string& model, double fraction, int replication) {
  return testing::StaticRecordsNetwork(23) + "adversaries: {fraction: " + std::to_string(fraction) +
         ", model: " + model + R"(}
records: {replication: )" +
         std::to_string(replication) +
         R"(, records_per_node: 1, republish_s: 600, gets_per_node_per_min: 2}
)";
}

TEST_CASE("drop_storage adversaries cost availability that replication buys back", "[sim]") {
  const report::PointResult single = RunOne(WithAdversaries("drop_storage", 0.4, 1));
  const report::PointResult eight = RunOne(WithAdversaries("drop_storage", 0.4, 8));
  CHECK(single.summary.adversary.storage_requests_dropped > 0);
  REQUIRE(single.summary.records_available_rate);
  REQUIRE(eight.summary.records_available_rate);
  CHECK(*single.summary.records_available_rate < 0.9);
  CHECK(*eight.summary.records_available_rate > 0.95);
  CHECK(single.summary.records.records_unknown == 0);
}

TEST_CASE("forged records are rejected by verification and never reach a get's result", "[sim]") {
  const report::PointResult run = RunOne(WithAdversaries("forge_records", 0.3, 5));
  const report::RunSummary& s = run.summary;
  CHECK(s.adversary.records_forged > 0);
  CHECK(s.records.records_rejected > 0);
  CHECK(s.records.records_rejected <= s.adversary.records_forged);
  CHECK(s.records.records_unknown == 0);
  REQUIRE(s.records_available_rate);
  CHECK(*s.records_available_rate > 0.95);
}

}  // namespace
}  // namespace skillnode::sim
