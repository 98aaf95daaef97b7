// PopulationSetup on parts built by hand, as Simulation::State builds them: what each build
// mode brings up before the first event, and the events it schedules.
#include "sim/engine/population_setup.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/network/latency.h"

namespace skillnode::sim {
namespace {

using engine::Event;
using engine::EventKind;
using engine::kEpoch;

// The parts of one simulation, without its event loop. Adversaries take the last slots.
struct World {
  World(const scenario::Scenario& s, size_t adversary_slots)
      : scenario(s), latency(s.network.latency), honest_slots(s.nodes - adversary_slots) {
    transport::Rng rng(s.seed);
    latency.Place(s.nodes, rng);
    clocks.fill(now);
    network.emplace(s.network, latency, queue, kEpoch, rng.Next64());
    population.emplace(s, honest_slots, adversary_slots, queue, *network, now, clocks,
                       rng.Next64());
    workload.emplace(s, *population, queue, now, kEpoch, rng.Next64(), traces);
    setup.emplace(engine::PopulationSetup::Parts{scenario, honest_slots, queue, *network,
                                                 *population, *workload});
  }

  // Every scheduled event, earliest first; the queue is left empty.
  std::vector<Event> Drain() {
    std::vector<Event> out;
    while (!queue.empty()) out.push_back(queue.Pop());
    return out;
  }

  const scenario::Scenario& scenario;
  transport::TimePoint now = kEpoch;
  engine::EventQueue queue;
  network::LatencyModel latency;
  size_t honest_slots;
  hosts::Population::LaneClocks clocks;
  workloads::Workload::LaneTraces traces;
  std::optional<network::Network> network;
  std::optional<hosts::Population> population;
  std::optional<workloads::Workload> workload;
  std::optional<engine::PopulationSetup> setup;
};

std::vector<Event> Of(const std::vector<Event>& events, EventKind kind) {
  std::vector<Event> out;
  for (const Event& e : events) {
    if (e.kind == kind) out.push_back(e);
  }
  return out;
}

scenario::Scenario JoinScenario() {
  scenario::Scenario s;
  s.nodes = 40;
  s.network.build = scenario::BuildMode::kJoin;
  s.network.join_interval_ms = 100;
  s.network.settle_s = 60;
  s.workload.lookups = 10;
  s.workload.lookup_rate_per_s = 10;
  s.workload.drain_s = 30;
  return s;
}

TEST_CASE("a join-built network gets one join per node, join_interval_ms apart, then its end",
          "[sim]") {
  const scenario::Scenario s = JoinScenario();
  World world(s, 0);
  transport::Rng rng(1);
  const transport::TimePoint end = world.setup->Run(rng, kEpoch, {});
  for (uint32_t slot = 0; slot < s.nodes; ++slot) CHECK_FALSE(world.population->online(slot));
  const std::vector<Event> events = world.Drain();
  const std::vector<Event> joins = Of(events, EventKind::kJoin);
  REQUIRE(joins.size() == s.nodes);
  for (uint32_t slot = 0; slot < s.nodes; ++slot) {
    CHECK(joins[slot].slot == slot);
    CHECK(joins[slot].at == kEpoch + transport::Millis(100 * int64_t{slot}));
  }
  // The lookups start once the last join has had settle_s; the run ends drain_s after the last.
  const std::vector<Event> lookups = Of(events, EventKind::kStaticLookup);
  REQUIRE_FALSE(lookups.empty());
  CHECK(lookups.front().at == joins.back().at + transport::Seconds(60));
  CHECK(end == world.workload->last_start() + transport::Seconds(30));
  const std::vector<Event> stops = Of(events, EventKind::kStop);
  REQUIRE(stops.size() == 1);
  CHECK(stops.front().at == end);
  CHECK(Of(events, EventKind::kAnnounce).empty());
  CHECK(Of(events, EventKind::kPublishAll).empty());
  // A join event brings its slot online.
  world.setup->OnJoinEvent(3);
  CHECK(world.population->online(3));
}

TEST_CASE("a join-built network starts its scripted adversaries at once and has them announce",
          "[sim]") {
  scenario::Scenario s = JoinScenario();
  s.adversaries.fraction = 0.1;
  s.adversaries.model = scenario::AdversaryModel::kEclipse;
  World world(s, 4);
  transport::Rng rng(1);
  world.setup->Run(rng, kEpoch, {});
  for (uint32_t slot = 0; slot < s.nodes; ++slot) {
    CHECK(world.population->online(slot) == (slot >= world.honest_slots));
  }
  const std::vector<Event> events = world.Drain();
  const std::vector<Event> joins = Of(events, EventKind::kJoin);
  REQUIRE(joins.size() == world.honest_slots);
  CHECK(joins.back().slot == world.honest_slots - 1);
  const std::vector<Event> announces = Of(events, EventKind::kAnnounce);
  REQUIRE(announces.size() == 4);
  for (size_t i = 0; i < announces.size(); ++i) {
    CHECK(announces[i].slot == world.honest_slots + i);
    CHECK(announces[i].at == joins.back().at + engine::kAnnounceDelay);
  }
}

TEST_CASE("an oracle-built network is up with full tables before its first event", "[sim]") {
  scenario::Scenario s;
  s.nodes = 1024;  // one progress line for each of the two build phases
  s.network.build = scenario::BuildMode::kOracle;
  s.workload.lookups = 10;
  s.workload.drain_s = 30;
  World world(s, 0);
  transport::Rng rng(2);
  std::vector<std::string> phases;
  const transport::TimePoint end = world.setup->Run(
      rng, kEpoch, [&](const engine::ProgressInfo& info) { phases.emplace_back(info.phase); });
  CHECK(phases == std::vector<std::string>{"identities", "tables"});
  for (uint32_t slot = 0; slot < s.nodes; slot += 7) {
    REQUIRE(world.population->online(slot));
    CHECK(world.population->slot(slot).host->node()->routing_table().size() > 0);
  }
  const std::vector<Event> events = world.Drain();
  CHECK(Of(events, EventKind::kJoin).empty());
  const std::vector<Event> lookups = Of(events, EventKind::kStaticLookup);
  REQUIRE_FALSE(lookups.empty());
  CHECK(lookups.front().at == kEpoch + engine::kStaticStartDelay);
  const std::vector<Event> stops = Of(events, EventKind::kStop);
  REQUIRE(stops.size() == 1);
  CHECK(stops.front().at == end);
  CHECK(end == world.workload->last_start() + transport::Seconds(30));
}

}  // namespace
}  // namespace skillnode::sim
