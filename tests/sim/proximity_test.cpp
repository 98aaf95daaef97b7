// The lookup changes measured on Heep's conditions, each on its own, in small seeded networks
// with per-host latency: proximity neighbour selection and the final round make lookups
// faster and keep them exact in a static network.
#include <catch2/catch.hpp>
#include <string>

#include "sim_util.h"

namespace skillnode::sim {
namespace {

using testing::RunOne;

// A static network of 400 nodes on per-host coordinates, and 24,000 lookups of live nodes'
// ids over 10 minutes, through which the nodes measure the RTTs their tables choose by.
std::string StaticYaml(const std::string& kademlia) {
  return R"(
seed: 4
nodes: 400
kademlia: {k: 8, alpha: 3, )" +
         kademlia + R"(}
network: {build: join, join_interval_ms: 20, latency: {model: coordinates}}
workload: {lookups: 24000, lookup_rate_per_s: 40, targets: random_node}
)";
}

void CheckExact(const workloads::LookupSummary& l) {
  CHECK(l.lookups == 24000);
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

}  // namespace
}  // namespace skillnode::sim
