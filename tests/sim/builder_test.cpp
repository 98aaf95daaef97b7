// Oracle-built routing tables look like a converged network's: each holds its node's true k
// closest nodes and about k contacts per bucket range.
#include "sim/hosts/builder.h"

#include <catch2/catch.hpp>

#include "sim/hosts/population.h"
#include "sim/network/latency.h"
#include "sim/network/network.h"

namespace skillnode::sim {
namespace {

TEST_CASE("an oracle-built table holds the true k closest and k contacts per far bucket",
          "[unit]") {
  scenario::Scenario scenario;
  scenario.nodes = 600;
  scenario.kademlia.routing.bucket_size = 8;
  const size_t k = scenario.kademlia.routing.bucket_size;
  transport::TimePoint now = transport::kTimeZero + transport::Seconds(1);
  engine::EventQueue queue;
  network::LatencyModel latency(scenario.network.latency);
  network::Network network(scenario.network, latency, queue, now, 1);
  hosts::Population::LaneClocks clocks;
  clocks.fill(now);
  hosts::Population population(scenario, scenario.nodes, 0, queue, network, now, clocks, 2);
  for (uint32_t i = 0; i < scenario.nodes; ++i) population.Start(i);
  population.MarkAllJoined();
  transport::Rng rng(3);
  hosts::FillRoutingTablesFromOracle(population, rng, now, {});

  for (uint32_t i = 0; i < scenario.nodes; i += 37) {
    const kademlia::Node& node = *population.slot(i).host->node();
    const kademlia::routing::RoutingTable& table = node.routing_table();
    INFO("node " << i);
    for (const workloads::OracleEntry& e : population.live().Closest(node.id(), k + 1)) {
      if (e.id != node.id()) CHECK(table.Find(e.id) != std::nullopt);
    }
    // log2(600 / 8) is about 6 buckets of k, plus the nearest ones.
    CHECK(table.bucket_count() >= 5);
    CHECK(table.size() >= 5 * k);
    CHECK(table.size() <= table.bucket_count() * k);
    // A sampled range that also holds some of the k closest offers more than k; the table
    // keeps the extra in a replacement cache, as a converged node's table would.
    CHECK(table.stats().replacements <= k);
    // The farthest bucket (half the network) is full.
    CHECK(table.Closest(node.id().WithBitFlipped(0), k).size() == k);
  }
}

}  // namespace
}  // namespace skillnode::sim
