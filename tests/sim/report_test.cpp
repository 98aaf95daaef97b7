// What a run writes: summary.json with the promised keys, one CSV row per lookup, plots.
#include "sim/report/report.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sim/report/plots.h"
#include "sim_util.h"
#include "support/temp_dir.h"

namespace skillnode::sim {
namespace {

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// True (with a warning) when the plots could not be made because gnuplot is not installed.
bool GnuplotMissing(const transport::Result<std::vector<std::string>>& plots) {
  if (plots || plots.error().code != transport::ErrorCode::kNotFound) return false;
  WARN("gnuplot is not installed: plots not checked");
  return true;
}

TEST_CASE("a run writes summary.json with every promised key, the CSV and the plots", "[sim]") {
  const scenario::ScenarioPlan plan = testing::Plan(R"(
name: tiny
seed: 4
nodes: 40
kademlia: {k: 4}
network: {latency: {model: constant, rtt_ms: 30}}
workload: {lookups: 20, lookup_rate_per_s: 20}
sweep:
  kademlia.alpha: [1, 3]
)");
  const auto points = engine::RunPlan(plan, engine::RunOptions{});
  const report::RunSummary total = report::CombineRuns(points, 1.5);
  skillnode::testing::TempDir dir;
  REQUIRE(report::WriteReport(dir.path().string(), plan, points, total));

  const auto summary = nlohmann::json::parse(Read(dir.File("summary.json")));
  for (const char* key : {"nodes", "lookups", "success_rate", "oracle_mismatches", "hops_mean",
                          "hops_p99", "messages_per_lookup", "latency_ms_p50", "latency_ms_p99",
                          "trace_hash", "sim_seconds", "wall_seconds", "threads", "peak_rss_mb",
                          "allocator", "malloc_huge_pages", "huge_pages_mb", "points"}) {
    INFO(key);
    CHECK(summary.contains(key));
  }
  CHECK_FALSE(summary.contains("records_available_rate"));  // no records were simulated
  CHECK(summary["lookups"] == 40);
  CHECK(summary["nodes"] == 40);
  CHECK(summary["wall_seconds"] == 1.5);
  REQUIRE(summary["points"].size() == 2);
  CHECK(summary["points"][1]["kademlia.alpha"] == 3);
  CHECK(summary["points"][1]["lookups"] == 20);
  CHECK(summary["points"][0]["trace_hash"].get<std::string>().size() == 16);
  CHECK(summary["points"][0]["threads"] == 1);  // the two points ran at once

  const std::string csv = Read(dir.File("lookups.csv"));
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 41);  // header + one row per lookup
  CHECK(csv.rfind("point,start_s,asker,status,success,exact,", 0) == 0);

  auto plots = report::WritePlots(dir.path().string(), plan, points);
  if (GnuplotMissing(plots)) return;
  REQUIRE(plots);
  CHECK(plots->size() == 4);
  for (const std::string& png : *plots) {
    INFO(png);
    const std::string bytes = Read(dir.File(png));
    CHECK(bytes.size() > 1000);
    CHECK(bytes.substr(1, 3) == "PNG");
  }
}

TEST_CASE("a sweep with records also plots record availability against the swept key", "[sim]") {
  const scenario::ScenarioPlan plan = testing::Plan(R"(
name: tiny-records
seed: 5
nodes: 40
kademlia: {k: 8, alpha: 3}
network: {latency: {model: constant, rtt_ms: 50}}
workload: {lookups: 10, lookup_rate_per_s: 10, measure_s: 60, drain_s: 30}
records: {replication: 3, records_per_node: 1, republish_s: 600, gets_per_node_per_min: 2}
sweep:
  records.replication: [1, 3]
)");
  const auto points = engine::RunPlan(plan, engine::RunOptions{});
  skillnode::testing::TempDir dir;
  auto plots = report::WritePlots(dir.path().string(), plan, points);
  if (GnuplotMissing(plots)) return;
  REQUIRE(plots);
  REQUIRE(plots->size() == 5);
  CHECK(plots->back() == "availability_vs_replication.png");
  CHECK(Read(dir.File("availability_vs_replication.png")).substr(1, 3) == "PNG");
  // One line per series, one row per point: x, then records_available_rate.
  std::istringstream data(Read(dir.File("availability.dat")));
  double x = 0, rate = 0;
  REQUIRE(data >> x >> rate);
  CHECK(x == 1);
  CHECK(rate == *points[0].summary.records_available_rate);
  REQUIRE(data >> x >> rate);
  CHECK(x == 3);
  CHECK(rate == *points[1].summary.records_available_rate);
}

TEST_CASE("a run with records lists every missed get in record_misses.csv", "[sim]") {
  // One copy per record under churn: a crashed holder takes its records with it until the
  // publisher's next republish, so some gets miss.
  const scenario::ScenarioPlan plan = testing::Plan(R"(
name: lossy-records
seed: 9
nodes: 40
kademlia: {k: 8, alpha: 3}
network: {build: join, join_interval_ms: 50, latency: {model: constant, rtt_ms: 50}}
churn: {session: {distribution: exponential, mean_s: 300}, rejoin: lose}
workload: {lookup_interval_s: 60, warmup_s: 60, measure_s: 300, drain_s: 30}
records: {replication: 1, records_per_node: 1, republish_s: 600, gets_per_node_per_min: 2}
)");
  const auto points = engine::RunPlan(plan, engine::RunOptions{});
  const workloads::RecordCounters& c = points[0].summary.records;
  const uint64_t missed = c.missed_asked + c.missed_near + c.missed_far + c.missed_lost;
  REQUIRE(missed > 0);
  CHECK(missed == c.gets_checked - c.gets_found);
  skillnode::testing::TempDir dir;
  REQUIRE(report::WriteReport(dir.path().string(), plan, points, report::CombineRuns(points, 1.0)));
  std::istringstream csv(Read(dir.File("record_misses.csv")));
  std::string line;
  REQUIRE(std::getline(csv, line));
  CHECK(line.rfind("point,finished_s,asker,publisher,publisher_up,published_for_s,kind,", 0) == 0);
  std::map<std::string, uint64_t> kinds;
  uint64_t rows = 0, up = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> fields;
    std::istringstream row(line);
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    REQUIRE(fields.size() == 14);
    ++rows;
    ++kinds[fields[6]];
    up += fields[4] == "1";
  }
  CHECK(rows == missed);
  CHECK(kinds["asked"] == c.missed_asked);
  CHECK(kinds["near"] == c.missed_near);
  CHECK(kinds["far"] == c.missed_far);
  CHECK(kinds["lost"] == c.missed_lost);
  CHECK(up == c.gets_checked_publisher_up - c.gets_found_publisher_up);
}

TEST_CASE("a sweep's summary adds up its points' counters and keeps their memory figures",
          "[sim]") {
  std::vector<report::PointResult> points(2);
  points[0].summary.adversary = {.eclipse_replies = 3,
                                 .storage_requests_dropped = 5,
                                 .forge_opportunities = 7,
                                 .records_forged = 11};
  points[1].summary.adversary = {.eclipse_replies = 30,
                                 .storage_requests_dropped = 50,
                                 .forge_opportunities = 70,
                                 .records_forged = 110};
  points[0].summary.adversary_tables = {
      .contacts = 100, .adversarial = 20, .nearest = 8, .nearest_adversarial = 2};
  points[1].summary.adversary_tables = {
      .contacts = 1000, .adversarial = 200, .nearest = 80, .nearest_adversarial = 20};
  points[0].summary.huge_pages_mb = 40;
  points[1].summary.huge_pages_mb = 12;
  for (report::PointResult& p : points) {
    p.summary.allocator = "test-allocator";
    p.summary.malloc_huge_pages = true;
  }
  const report::RunSummary total = report::CombineRuns(points, 2.0);
  CHECK(total.adversary.eclipse_replies == 33);
  CHECK(total.adversary.storage_requests_dropped == 55);
  CHECK(total.adversary.forge_opportunities == 77);
  CHECK(total.adversary.records_forged == 121);
  REQUIRE(total.adversary_tables);
  CHECK(total.adversary_tables->contacts == 1100);
  CHECK(total.adversary_tables->adversarial == 220);
  CHECK(total.adversary_tables->nearest == 88);
  CHECK(total.adversary_tables->nearest_adversarial == 22);
  // Each point measured its heap before giving it back; the sweep reports the largest.
  CHECK(total.huge_pages_mb == 40);
  CHECK(total.allocator == "test-allocator");
  CHECK(total.malloc_huge_pages);
  // A lone point keeps its own figure too, not one measured after its heap was freed.
  const report::RunSummary one = report::CombineRuns({points[0]}, 1.0);
  CHECK(one.huge_pages_mb == 40);
  CHECK(one.adversary.records_forged == 11);
}

}  // namespace
}  // namespace skillnode::sim
