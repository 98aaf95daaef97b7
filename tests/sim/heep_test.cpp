// E3 the way Heep (2010) ran it in OverSim: LifetimeChurn's start, Heep's latency metric
// (first answer from the responsible node, failures as 10 s), bytes per node per second, and
// seeds grouped with 95 % intervals.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "sim/report/seed_groups.h"
#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::Plan;
using testing::RunOne;

std::string ChurnYaml(const std::string& start) {
  return R"(
seed: 5
nodes: 200
kademlia: {k: 8, alpha: 3}
network: {build: join, join_interval_ms: 50, latency: {model: constant, rtt_ms: 50}}
churn:
  session: {distribution: weibull, shape: 0.5, mean_s: 3000}
  start: )" +
         start + R"(
workload: {lookup_interval_s: 60, warmup_s: 60, measure_s: 300, drain_s: 30}
)";
}

TEST_CASE("OverSim's lifetime start has twice the slots and more early departures", "[sim]") {
  const report::PointResult lifetime = RunOne(ChurnYaml("lifetime"));
  const report::PointResult stationary = RunOne(ChurnYaml("stationary"));
  CHECK(lifetime.summary.slots == 400);
  CHECK(stationary.summary.slots == 400);  // equal session and downtime means: also twice
  // Every one of the first 200 slots comes up during the creation phase.
  CHECK(lifetime.summary.churn.arrivals >= 200);
  // Fresh Weibull(0.5) sessions end early far more often than the stationary residual ones:
  // about 40 % of 200 within 400 s, against about 27 departures at the stationary rate.
  INFO("lifetime " << lifetime.summary.churn.crashes << ", stationary "
                   << stationary.summary.churn.crashes);
  CHECK(lifetime.summary.churn.crashes > 2 * stationary.summary.churn.crashes);
  CHECK(lifetime.summary.lookups.success_rate >= 0.9);
  const workloads::LookupSummary& l = lifetime.summary.lookups;
  uint64_t misses = 0;
  for (const uint64_t n : l.failures_by_cause) misses += n;
  CHECK(misses == l.lookups - l.successes);
}

// A static network of 300 nodes at a constant 100 ms RTT, with 300 lookups of live nodes' ids.
std::string StaticYaml(double loss) {
  return R"(
seed: 8
nodes: 300
kademlia: {k: 8, alpha: 3}
network: {build: oracle, latency: {model: constant, rtt_ms: 100}, loss: )" +
         std::to_string(loss) + R"(}
workload: {lookups: 300, lookup_rate_per_s: 50, targets: random_node}
)";
}
const std::string kStatic = StaticYaml(0);

TEST_CASE("Heep's latency ends at the responsible node's first answer plus the final hop",
          "[sim]") {
  const report::PointResult r = RunOne(kStatic);
  const workloads::LookupSummary& l = r.summary.lookups;
  CHECK(l.success_rate == 1.0);
  CHECK(l.heep_lookups == l.lookups);
  CHECK(l.heep_failures == 0);
  for (const workloads::LookupRecord& record : r.lookups) {
    REQUIRE(record.responsible != workloads::kNoResponsible);
    // The request arrives half an RTT after it left, the answer half an RTT later, and the
    // test message takes another half: never less than 150 ms, and exactly 100 ms after the
    // request arrived (a constant RTT, no jitter).
    CHECK(record.contact_ms >= 50);
    CHECK(record.heep_ms == Approx(record.contact_ms + 100));
    CHECK(record.heep_ms <= record.latency_ms + 50);
  }
  CHECK(l.heep_latency_ms_mean >= 150);
  CHECK(l.heep_latency_ms_p50 >= 150);
}

TEST_CASE("a lookup that never hears from the responsible node counts as 10 s", "[sim]") {
  const report::PointResult r = RunOne(StaticYaml(0.4));
  const workloads::LookupSummary& l = r.summary.lookups;
  REQUIRE(l.heep_failures > 0);
  const double failed_share = static_cast<double>(l.heep_failures) / l.heep_lookups;
  CHECK(l.heep_latency_ms_mean >= failed_share * workloads::kHeepFailureMs);
  size_t failed = 0;
  for (const workloads::LookupRecord& record : r.lookups) failed += record.heep_ms < 0;
  CHECK(failed == l.heep_failures);
}

TEST_CASE("every lookup that misses is given its cause", "[sim]") {
  const report::PointResult r = RunOne(R"(
seed: 9
nodes: 300
kademlia: {k: 8, alpha: 3}
network: {build: oracle, latency: {model: constant, rtt_ms: 100}, loss: 0.3}
workload: {lookups: 400, lookup_rate_per_s: 50, targets: random_node}
)");
  const workloads::LookupSummary& l = r.summary.lookups;
  REQUIRE(l.successes < l.lookups);
  uint64_t misses = 0;
  for (const uint64_t n : l.failures_by_cause) misses += n;
  CHECK(misses == l.lookups - l.successes);
  // Nobody leaves a static network, and every node sits in many tables.
  CHECK(l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kGone)] == 0);
  CHECK(l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kUnknown)] == 0);
  // 30 % loss: requests to the responsible node are lost, and so are its answers.
  CHECK(l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kLost)] > 0);
  CHECK(l.failures_by_cause[static_cast<size_t>(workloads::FailureCause::kUnanswered)] > 0);
  for (const workloads::LookupRecord& record : r.lookups) {
    if (record.success) {
      CHECK(record.cause == workloads::FailureCause::kNone);
      continue;
    }
    CHECK(record.responsible_held);
    CHECK(record.cause != workloads::FailureCause::kNone);
    // A miss after a request reached the responsible node: its answer was lost (30 %), or it
    // came after the lookup had ended.
    if (record.contact_ms >= 0) {
      CHECK((record.cause == workloads::FailureCause::kUnanswered ||
             record.cause == workloads::FailureCause::kSlow ||
             record.cause == workloads::FailureCause::kAnswered));
    } else if (record.responsible_asked) {
      CHECK(record.cause == workloads::FailureCause::kLost);
    } else {
      CHECK(record.cause == workloads::FailureCause::kUnreached);
    }
  }
}

TEST_CASE("bytes per node per second count the measured window's sends over host-seconds",
          "[sim]") {
  const report::PointResult r = RunOne(kStatic);
  const report::RunSummary& s = r.summary;
  REQUIRE(s.network.window_sent > 0);
  CHECK(s.network.window_sent <= s.network.sent);
  // 300 hosts online through the whole window: from the first lookup (the last starts 299 / 50
  // s later) until the run ends, once every lookup has finished.
  CHECK(s.online_host_seconds >= 300 * (299.0 / 50));
  CHECK(s.online_host_seconds <= 300 * (299.0 / 50 + 3));
  CHECK(s.bytes_per_node_per_s ==
        Approx(static_cast<double>(s.network.window_bytes) / s.online_host_seconds));
  CHECK(s.ip_bytes_per_node_per_s == Approx((static_cast<double>(s.network.window_bytes) +
                                             28.0 * static_cast<double>(s.network.window_sent)) /
                                            s.online_host_seconds));
}

TEST_CASE("95 % intervals use Student's t over the seeds", "[unit]") {
  const report::Estimate e = report::Estimate95({1, 2, 3});
  CHECK(e.mean == Approx(2));
  CHECK(e.ci95 == Approx(4.303 / std::sqrt(3.0)));
  CHECK(e.min == 1);
  CHECK(e.max == 3);
  CHECK(report::Estimate95({5}).ci95 == 0);
  CHECK(report::StudentT95(19) == Approx(2.093));
  CHECK(report::StudentT95(1000) == Approx(1.96));
}

TEST_CASE("a sweep over seeds is grouped by its other swept values", "[sim]") {
  const scenario::ScenarioPlan plan = Plan(R"(
nodes: 100
kademlia: {k: 8, alpha: 3}
network: {build: oracle, latency: {model: constant, rtt_ms: 100}}
workload: {lookups: 100, lookup_rate_per_s: 50, targets: random_node}
sweep:
  network.loss: [0, 0.2]
  seed: [1, 2, 3]
)");
  const std::vector<report::PointResult> points = engine::RunPlan(plan, engine::RunOptions{});
  const std::vector<report::SeedGroup> groups = report::GroupBySeed(plan, points);
  REQUIRE(groups.size() == 2);
  const std::vector<std::string_view>& names = report::GroupFigureNames();
  for (const report::SeedGroup& g : groups) {
    REQUIRE(g.points.size() == 3);
    REQUIRE(g.swept.size() == 1);
    CHECK(g.swept[0].path == "network.loss");
    for (size_t i = 0; i < names.size(); ++i) {
      INFO(names[i]);
      CHECK(g.figures[i].mean >= g.figures[i].min);
      CHECK(g.figures[i].mean <= g.figures[i].max);
    }
  }
  const size_t heep = static_cast<size_t>(
      std::find(names.begin(), names.end(), "heep_latency_ms_mean") - names.begin());
  // Loss makes Heep failures, each 10 s: the lossy group is far slower.
  CHECK(groups[1].figures[heep].mean > groups[0].figures[heep].mean + 200);
  CHECK(groups[1].figures[heep].ci95 > 0);
  // Without a sweep over seeds there are no groups.
  CHECK(report::GroupBySeed(Plan("nodes: 50\nsweep: {network.loss: [0, 0.1]}\n"), {}).empty());
}

}  // namespace
}  // namespace skillnode::sim
