// The lookup changes measured on Heep's conditions, each on its own, in small seeded networks
// with per-host latency: proximity neighbour selection, the final round and extra slots for
// closer contacts make lookups faster and keep them exact in a static network; LEAVE notices
// keep departed nodes out of answers under churn.
#include <catch2/catch.hpp>
#include <string>

#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::RunOne;

// A static network of 400 nodes on per-host coordinates, and 24,000 lookups of live nodes'
// ids over 10 minutes, through which the nodes measure the RTTs their tables choose by.
constexpr int kStaticNodes = 400;
constexpr int kStaticLookups = 24000;
std::string StaticYaml(const std::string& kademlia, int nodes = kStaticNodes,
                       int lookups = kStaticLookups) {
  return R"(
seed: 4
nodes: )" +
         std::to_string(nodes) +
         R"(
kademlia: {k: 8, alpha: 3, )" +
         kademlia + R"(}
network: {build: join, join_interval_ms: 20, latency: {model: coordinates}}
workload: {lookups: )" +
         std::to_string(lookups) + R"(, lookup_rate_per_s: 40, targets: random_node}
)";
}

void CheckExact(const workloads::LookupSummary& l, int lookups = kStaticLookups) {
  CHECK(l.lookups == static_cast<uint64_t>(lookups));
  CHECK(l.success_rate == 1.0);
  CHECK(l.oracle_mismatches == 0);
  CHECK(l.heep_failures == 0);
}

TEST_CASE("proximity neighbour selection shortens lookups and keeps them exact", "[sim]") {
  const report::PointResult plain =
      RunOne(StaticYaml("proximity_ratio: 0, lookup_final_round: false"));
  const report::PointResult near =
      RunOne(StaticYaml("proximity_ratio: 0.5, lookup_final_round: false"));
  CheckExact(plain.summary.lookups);
  CheckExact(near.summary.lookups);
  const double before = plain.summary.lookups.heep_latency_ms_mean;
  const double after = near.summary.lookups.heep_latency_ms_mean;
  INFO("Heep latency without " << before << " ms, with " << after << " ms");
  CHECK(after < 0.85 * before);
}

TEST_CASE("the final round ends lookups sooner with no more messages, and keeps them exact",
          "[sim]") {
  const report::PointResult plain = RunOne(StaticYaml("lookup_final_round: false"));
  const report::PointResult final_round = RunOne(StaticYaml("lookup_final_round: true"));
  CheckExact(plain.summary.lookups);
  CheckExact(final_round.summary.lookups);
  const workloads::LookupSummary &before = plain.summary.lookups,
                                 &after = final_round.summary.lookups;
  INFO("all-k latency p50 without " << before.latency_ms_p50 << " ms, with " << after.latency_ms_p50
                                    << " ms; messages " << before.messages_per_lookup << " and "
                                    << after.messages_per_lookup);
  CHECK(after.latency_ms_p50 < 0.9 * before.latency_ms_p50);
  CHECK(after.messages_per_lookup < 1.05 * before.messages_per_lookup);
}

TEST_CASE("extra slots for closer contacts shorten lookups, keep them exact, at a bounded cost",
          "[sim]") {
  // 1,500 nodes: enough hops for a closer lead to be worth following at once.
  const report::PointResult plain = RunOne(StaticYaml("lookup_extra_slots: 0", 1500, 20000));
  const report::PointResult extra = RunOne(StaticYaml("lookup_extra_slots: 3", 1500, 20000));
  CheckExact(plain.summary.lookups, 20000);
  CheckExact(extra.summary.lookups, 20000);
  const workloads::LookupSummary &before = plain.summary.lookups, &after = extra.summary.lookups;
  INFO("Heep latency without " << before.heep_latency_ms_mean << " ms, with "
                               << after.heep_latency_ms_mean << " ms; messages "
                               << before.messages_per_lookup << " and " << after.messages_per_lookup
                               << "; all-k p50 " << before.latency_ms_p50 << " and "
                               << after.latency_ms_p50 << " ms");
  CHECK(after.heep_latency_ms_mean < 0.96 * before.heep_latency_ms_mean);
  CHECK(after.latency_ms_p50 < 0.96 * before.latency_ms_p50);
  CHECK(after.messages_per_lookup < 1.2 * before.messages_per_lookup);
}

// Graceful departures only, so that every departed node could have said it left.
std::string ChurnYaml(const std::string& kademlia) {
  return R"(
seed: 6
nodes: 300
kademlia: {k: 8, alpha: 3, )" +
         kademlia + R"(}
network: {build: join, join_interval_ms: 20, latency: {model: coordinates}}
churn:
  session: {distribution: weibull, shape: 0.5, mean_s: 1500}
  graceful_fraction: 1
workload: {lookup_interval_s: 30, warmup_s: 300, measure_s: 600, drain_s: 30, targets: random_node}
)";
}

TEST_CASE("LEAVE keeps nodes that left out of answers: fewer timeouts, faster lookups", "[sim]") {
  const report::PointResult silent = RunOne(ChurnYaml("leave_notices_max: 0"));
  const report::PointResult told = RunOne(ChurnYaml("leave_notices_max: 64"));
  const workloads::LookupSummary &before = silent.summary.lookups, &after = told.summary.lookups;
  INFO("failures per lookup without "
       << before.failures_per_lookup << ", with " << after.failures_per_lookup << "; all-k p50 "
       << before.latency_ms_p50 << " and " << after.latency_ms_p50 << " ms; success "
       << before.success_rate << " and " << after.success_rate);
  CHECK(silent.summary.churn.graceful > 50);
  CHECK(told.summary.node_totals.leaves_sent > 0);
  CHECK(told.summary.node_totals.contacts_left > 0);
  CHECK(silent.summary.node_totals.leaves_sent == 0);
  CHECK(after.failures_per_lookup < 0.6 * before.failures_per_lookup);
  CHECK(after.latency_ms_p50 < 0.95 * before.latency_ms_p50);
  CHECK(after.success_rate >= before.success_rate);
}

}  // namespace
}  // namespace skillnode::sim
