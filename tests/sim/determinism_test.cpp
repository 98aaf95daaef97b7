// One scenario and seed reproduce a whole run: the trace hash over every delivered datagram
// and every lookup result is the same on every run, whatever the thread count.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "sim/engine/event_queue.h"
#include "sim/engine/trace_hash.h"
#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::Plan;
using testing::RunOne;

// Exercises every source of randomness: churn, joins, loss, duplication, reordering, jitter,
// a partition and adversaries.
const std::string kEverything = R"(
seed: 11
nodes: 40
kademlia: {k: 8, alpha: 3}
network:
  build: join
  join_interval_ms: 20
  latency: {model: regions, jitter: 0.2}
  loss: 0.02
  duplicate: 0.01
  reorder: 0.05
  partitions: [{start_s: 30, heal_s: 50, fraction: 0.3}]
churn:
  session: {distribution: weibull, shape: 0.5, mean_s: 300}
  downtime: {distribution: exponential, mean_s: 100}
  graceful_fraction: 0.5
  rejoin: keep
adversaries: {fraction: 0.1, model: drop_storage}
workload: {lookup_interval_s: 10, warmup_s: 20, measure_s: 60, drain_s: 10}
)";

TEST_CASE("the same scenario and seed give the same trace hash; another seed another", "[sim]") {
  const report::PointResult first = RunOne(kEverything);
  const report::PointResult second = RunOne(kEverything);
  CHECK(first.summary.trace_hash == second.summary.trace_hash);
  CHECK(first.summary.events == second.summary.events);
  CHECK(first.summary.network.delivered == second.summary.network.delivered);
  CHECK(first.summary.lookups.successes == second.summary.lookups.successes);
  REQUIRE(first.lookups.size() == second.lookups.size());
  for (size_t i = 0; i < first.lookups.size(); ++i) {
    CHECK(first.lookups[i].latency_ms == second.lookups[i].latency_ms);
  }
  // The run exercised what it claims to.
  CHECK(first.summary.network.lost > 0);
  CHECK(first.summary.network.duplicated > 0);
  CHECK(first.summary.network.reordered > 0);
  CHECK(first.summary.network.partitioned > 0);
  CHECK(first.summary.churn.crashes > 0);
  CHECK(first.summary.churn.graceful > 0);
  CHECK(first.summary.lookups.lookups > 100);

  scenario::ScenarioOverrides other;
  other.seed = 12;
  CHECK(RunOne(kEverything, other).summary.trace_hash != first.summary.trace_hash);
}

TEST_CASE("a run's two event lanes give the same run on one thread and on two", "[sim]") {
  const report::PointResult one = RunOne(kEverything, {}, 1);
  const report::PointResult two = RunOne(kEverything, {}, 2);
  CHECK(engine::TraceHash::Hex(one.summary.trace_hash) ==
        engine::TraceHash::Hex(two.summary.trace_hash));
  CHECK(one.summary.events == two.summary.events);
  CHECK(one.summary.network.sent == two.summary.network.sent);
  CHECK(one.summary.network.delivered == two.summary.network.delivered);
  CHECK(one.summary.churn.crashes == two.summary.churn.crashes);
  REQUIRE(one.lookups.size() == two.lookups.size());
  for (size_t i = 0; i < one.lookups.size(); ++i) {
    INFO("lookup " << i);
    CHECK(one.lookups[i].asker == two.lookups[i].asker);
    CHECK(one.lookups[i].latency_ms == two.lookups[i].latency_ms);
    CHECK(one.lookups[i].success == two.lookups[i].success);
  }
  // Lookups started in many lanes, and the merged records are in start order.
  std::set<size_t> lanes;
  for (size_t i = 0; i < one.lookups.size(); ++i) {
    lanes.insert(engine::EventQueue::LaneOf(one.lookups[i].asker));
    if (i > 0) CHECK(one.lookups[i - 1].started <= one.lookups[i].started);
  }
  CHECK(lanes.size() > engine::EventQueue::kLanes / 2);
}

const std::string kSweep = R"(
seed: 3
nodes: 60
kademlia: {k: 8}
network: {latency: {model: uniform, rtt_min_ms: 10, rtt_max_ms: 90}, loss: 0.01}
adversaries: {model: eclipse}
workload: {lookups: 40, lookup_rate_per_s: 20}
sweep:
  adversaries.fraction: [0, 0.2]
  kademlia.disjoint_paths: [1, 2]
)";

TEST_CASE("a sweep gives the same per-point hashes on one thread and on three", "[sim]") {
  const scenario::ScenarioPlan plan = Plan(kSweep);
  engine::RunOptions one;
  one.threads = 1;
  engine::RunOptions three;
  three.threads = 3;
  const auto a = engine::RunPlan(plan, one);
  const auto b = engine::RunPlan(plan, three);
  REQUIRE(a.size() == 4);
  REQUIRE(b.size() == 4);
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].summary.trace_hash == b[i].summary.trace_hash);
    CHECK(a[i].summary.seed == 3 + i);
    CHECK(a[i].swept.size() == 2);
  }
  CHECK(a[0].summary.trace_hash != a[1].summary.trace_hash);
}

TEST_CASE("a sweep whose points cannot run together gives each point every thread", "[sim]") {
  const scenario::ScenarioPlan plan = Plan(kSweep);
  engine::RunOptions together;  // two 60-node points at once, one thread each
  together.threads = 2;
  engine::RunOptions alone = together;  // one point at a time, on both threads
  alone.nodes_in_flight_max = 100;
  const auto a = engine::RunPlan(plan, together);
  const auto b = engine::RunPlan(plan, alone);
  REQUIRE(a.size() == 4);
  REQUIRE(b.size() == 4);
  for (size_t i = 0; i < a.size(); ++i) {
    INFO("point " << i);
    CHECK(a[i].summary.threads == 1);
    CHECK(b[i].summary.threads == 2);
    CHECK(a[i].summary.trace_hash == b[i].summary.trace_hash);
  }
}

}  // namespace
}  // namespace skillnode::sim
