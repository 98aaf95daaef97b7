// Helpers for the simulator tests: run a scenario written inline as YAML.
#ifndef SKILLNODE_TESTS_SIM_SIM_UTIL_H_
#define SKILLNODE_TESTS_SIM_SIM_UTIL_H_

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/engine/runner.h"
#include "sim/engine/simulation.h"
#include "sim/scenario/scenario_parser.h"

namespace skillnode::sim::testing {

inline scenario::ScenarioPlan Plan(const std::string& yaml,
                                   const scenario::ScenarioOverrides& overrides = {}) {
  auto plan = scenario::ParseScenario(yaml, "test.yaml", overrides);
  INFO((plan ? std::string("parsed") : plan.error().message));
  REQUIRE(plan);
  return *plan;
}

// Runs a scenario without a sweep, its event lanes on `threads` threads; returns its only point.
inline report::PointResult RunOne(const std::string& yaml,
                                  const scenario::ScenarioOverrides& overrides = {},
                                  unsigned threads = 1) {
  const scenario::ScenarioPlan plan = Plan(yaml, overrides);
  REQUIRE(plan.points.size() == 1);
  engine::Simulation simulation(plan.points.front().scenario, {}, threads);
  return simulation.Run();
}

}  // namespace skillnode::sim::testing

#endif  // SKILLNODE_TESTS_SIM_SIM_UTIL_H_
