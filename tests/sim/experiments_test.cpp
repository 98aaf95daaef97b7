// Small versions of the three experiments (sim/scenarios/e1-e3), fast enough for every test
// run. Each asserts what a correct lookup achieves and a broken one would not.
#include <catch2/catch.hpp>
#include <string>

#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::RunOne;

// RTTs below the 100 ms timeout floor: no request times out in a static, lossless network.
const std::string kStatic = R"(
seed: 21
nodes: 200
kademlia: {k: 8, alpha: 3}
network: {latency: {model: constant, rtt_ms: 50}}
workload: {lookups: 150, lookup_rate_per_s: 50}
)";

TEST_CASE("in a static network every lookup returns exactly the true k closest nodes", "[sim]") {
  const report::PointResult r = RunOne(kStatic);
  const workloads::LookupSummary& l = r.summary.lookups;
  CHECK(l.lookups == 150);
  CHECK(l.completed == 150);
  CHECK(l.oracle_mismatches == 0);
  CHECK(l.success_rate == 1.0);
  CHECK(l.overlap_mean == 1.0);
  CHECK(l.failures_per_lookup == 0);
  // log2(200) / (1.333 + log2 8) = 1.76 predicted.
  CHECK(l.hops_mean >= 1.2);
  CHECK(l.hops_mean <= 2.6);
  CHECK(l.messages_per_lookup >= 8);  // k contacts must answer
  CHECK(l.latency_ms_p50 >= 100);     // at least two round trips
  CHECK(r.summary.node_totals.send_failures == 0);
}

TEST_CASE("a crippled lookup fails the same checks", "[sim]") {
  // Two requests per lookup cannot reach the k closest: the oracle must notice.
  std::string crippled = kStatic;
  crippled.replace(crippled.find("alpha: 3"), 8, "alpha: 3, lookup_requests_max: 2");
  const report::PointResult r = RunOne(crippled);
  CHECK(r.summary.lookups.oracle_mismatches > 100);
  CHECK(r.summary.lookups.success_rate < 0.9);
}

TEST_CASE("a network built by real joins also answers exactly", "[sim]") {
  const report::PointResult r = RunOne(R"(
seed: 22
nodes: 120
kademlia: {k: 8}
network: {build: join, join_interval_ms: 50, settle_s: 900, latency: {model: constant, rtt_ms: 40}}
workload: {lookups: 80, lookup_rate_per_s: 40}
)");
  CHECK(r.summary.lookups.lookups == 80);
  CHECK(r.summary.lookups.oracle_mismatches == 0);
  CHECK(r.summary.lookups.success_rate == 1.0);
}

TEST_CASE("hop counts grow with the network and shrink with k, near the prediction", "[sim]") {
  auto hops = [](size_t nodes, size_t k) {
    const report::PointResult r = RunOne("seed: 23\nnodes: " + std::to_string(nodes) +
                                         "\nkademlia: {k: " + std::to_string(k) +
                                         "}\nnetwork: {latency: {model: constant, rtt_ms: 50}}\n"
                                         "workload: {lookups: 120, lookup_rate_per_s: 100}\n");
    CHECK(r.summary.lookups.oracle_mismatches == 0);
    CHECK(r.summary.lookups.hops_mean <= r.summary.hops_predicted + 1.0);
    return r.summary.lookups.hops_mean;
  };
  const double small_k4 = hops(100, 4);
  const double large_k4 = hops(600, 4);
  const double large_k16 = hops(600, 16);
  CHECK(large_k4 > small_k4);
  CHECK(large_k16 < large_k4);
}

TEST_CASE("disjoint paths keep lookups succeeding among eclipse adversaries", "[sim]") {
  auto success = [](size_t paths, double fraction) {
    const report::PointResult r =
        RunOne("seed: 24\nnodes: 300\nkademlia: {k: 8, alpha: 1, disjoint_paths: " +
               std::to_string(paths) +
               "}\nnetwork: {latency: {model: constant, rtt_ms: 50}}\n"
               "adversaries: {model: eclipse, fraction: " +
               std::to_string(fraction) + "}\nworkload: {lookups: 100, lookup_rate_per_s: 100}\n");
    if (fraction > 0) CHECK(r.summary.adversary.eclipse_replies > 0);
    return r.summary.lookups.success_rate;
  };
  CHECK(success(1, 0) == 1.0);
  const double one_path = success(1, 0.4);
  const double four_paths = success(4, 0.4);
  CHECK(one_path < 0.9);
  CHECK(four_paths >= 0.95);
  CHECK(four_paths > one_path);
}

TEST_CASE("under churn and loss most lookups still find the closest live node", "[sim]") {
  const report::PointResult r = RunOne(R"(
seed: 25
nodes: 200
kademlia: {k: 8, alpha: 3}
network: {build: join, join_interval_ms: 50, latency: {model: constant, rtt_ms: 50}, loss: 0.01}
churn:
  session: {distribution: weibull, shape: 0.5, mean_s: 3000}
workload: {lookup_interval_s: 60, warmup_s: 60, measure_s: 120, drain_s: 30}
)");
  const report::RunSummary& s = r.summary;
  CHECK(s.churn.arrivals > 200);
  CHECK(s.churn.crashes > 0);
  CHECK(s.lookups.lookups > 300);
  CHECK(s.lookups.unfinished == 0);
  CHECK(s.lookups.success_rate >= 0.9);
  CHECK(s.lookups.overlap_mean >= 0.85);
}

}  // namespace
}  // namespace skillnode::sim

namespace skillnode::sim {
namespace {

// Regression (found by the registry-churn scenario): one timeout for all peers, derived from
// a node's recent RTTs (RFC 6298), followed runs of near peers down and timed out far peers
// that were answering; their replies came late, they were counted as failed, forgotten and
// evicted, and lookups missed the nodes closest to a key (lookup success 0.70, 7 % of live
// skills not found). With regional RTTs, no loss and no churn, no request may time out.
const std::string kRegionsNoLoss = R"(
seed: 41
nodes: 150
kademlia: {k: 8, alpha: 5}
network:
  build: join
  join_interval_ms: 50
  latency: {model: regions}
workload: {lookup_interval_s: 20, warmup_s: 60, measure_s: 240, drain_s: 30}
churn:
  session: {distribution: constant, mean_s: 100000}
)";

TEST_CASE("with regional RTTs and no loss no live peer's request times out", "[sim]") {
  const report::PointResult run = testing::RunOne(kRegionsNoLoss);
  const report::RunSummary& s = run.summary;
  CHECK(s.lookups.lookups > 1000);
  CHECK(s.node_totals.dropped[static_cast<size_t>(kademlia::DropReason::kUnmatchedReply)] == 0);
  CHECK(s.node_totals.rpcs_timed_out == 0);
  CHECK(s.churn.crashes == 0);
  CHECK(s.lookups.successes == s.lookups.lookups);
}

}  // namespace
}  // namespace skillnode::sim
