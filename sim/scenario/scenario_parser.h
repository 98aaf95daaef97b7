// Scenario files: YAML in, ScenarioPlan out (one Scenario per point of the sweep).
//
// Every key is checked: an unknown key, a value of the wrong type or outside its range, and
// inconsistent settings are refused with the key's path, e.g.
// "e1.yaml: network.latency.model: expected one of constant, uniform, regions, got 'fast'".
// Command-line flags override the file: --seed replaces `seed`, --nodes replaces `nodes`
// (including a sweep over it). Point i of a sweep runs with seed + i, so every point is an
// independent simulation and any one of them can be rerun alone.
#ifndef SKILLNODE_SIM_SCENARIO_SCENARIO_PARSER_H_
#define SKILLNODE_SIM_SCENARIO_SCENARIO_PARSER_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>

#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"
#include "transport/result.h"

namespace skillnode::sim::scenario {

struct ScenarioOverrides {
  std::optional<uint64_t> seed;
  std::optional<uint64_t> nodes;
};

// Parses scenario text; `source` names it in error messages.
[[nodiscard]] transport::Result<ScenarioPlan> ParseScenario(
    const std::string& text, const std::string& source, const ScenarioOverrides& overrides = {});
[[nodiscard]] transport::Result<ScenarioPlan> LoadScenarioFile(
    const std::string& path, const ScenarioOverrides& overrides = {});

// Reads one point's document (no `sweep` key) into a Scenario; errors go to the sink.
Scenario ReadScenario(YamlReader& root);

}  // namespace skillnode::sim::scenario

#endif  // SKILLNODE_SIM_SCENARIO_SCENARIO_PARSER_H_
