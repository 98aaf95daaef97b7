// The sweep half of scenario_parser.h: expanding `sweep:` into points and applying flags.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "sim/scenario/scenario_parser.h"

namespace skillnode::sim::scenario {
namespace {

// A sweep of more points than this is a typo (E1 has 44).
constexpr size_t kSweepPointsMax = 10'000;

// One swept dimension: a key path and its values, or several key paths that move together
// ("kademlia.disjoint_paths, kademlia.k": [[1, 2], [2, 4]]), one value of each per step.
struct Axis {
  std::vector<std::string> paths;
  std::vector<std::vector<YAML::Node>> values;  // per step, one value per path
};

std::vector<std::string> SplitPath(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream stream(path);
  for (std::string part; std::getline(stream, part, '.');) parts.push_back(part);
  return parts;
}

// Sets root[a][b]...[z] = value, creating maps on the way. yaml-cpp node handles are
// references, so each level gets a fresh handle instead of reassigning one.
void SetPath(YAML::Node node, const std::vector<std::string>& parts, size_t i,
             const YAML::Node& value) {
  if (i + 1 == parts.size()) {
    node[parts[i]] = value;
    return;
  }
  if (!node[parts[i]].IsMap()) node[parts[i]] = YAML::Node(YAML::NodeType::Map);
  SetPath(node[parts[i]], parts, i + 1, value);
}

std::vector<Axis> ReadAxes(const YAML::Node& sweep, const ScenarioOverrides& overrides,
                           ErrorSink& sink) {
  std::vector<Axis> axes;
  if (!sweep.IsDefined() || sweep.IsNull()) return axes;
  if (!sweep.IsMap()) {
    sink.Record("sweep: expected a map of key path to list of values");
    return axes;
  }
  for (const auto& entry : sweep) {
    const std::string key = entry.first.Scalar();
    const std::string where = "sweep." + key;
    Axis axis;
    std::stringstream parts(key);
    for (std::string part; std::getline(parts, part, ',');) {
      const size_t begin = part.find_first_not_of(' ');
      const size_t end = part.find_last_not_of(' ');
      axis.paths.push_back(begin == std::string::npos ? "" : part.substr(begin, end - begin + 1));
    }
    for (const std::string& path : axis.paths) {
      if (path == "sweep" || path.starts_with("plot") || path == "name" ||
          SplitPath(path).empty() ||
          ((path == "nodes" || path == "seed") && axis.paths.size() > 1)) {
        const bool one = axis.paths.size() == 1;
        sink.Record(where + ": cannot be swept" + (one ? "" : " together ('" + path + "')"));
        return {};
      }
    }
    if (!entry.second.IsSequence() || entry.second.size() == 0) {
      sink.Record(where + ": expected a non-empty list of values");
      return {};
    }
    const size_t width = axis.paths.size();
    for (size_t i = 0; i < entry.second.size(); ++i) {
      const YAML::Node& value = entry.second[i];
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (width == 1 && value.IsScalar()) {
        axis.values.push_back({value});
      } else if (width > 1 && value.IsSequence() && value.size() == width) {
        std::vector<YAML::Node> step;
        for (size_t j = 0; j < width; ++j) {
          if (!value[j].IsScalar()) {
            sink.Record(at + "[" + std::to_string(j) + "]: expected a single value");
            return {};
          }
          step.push_back(value[j]);
        }
        axis.values.push_back(std::move(step));
      } else {
        sink.Record(at + (width == 1 ? ": expected a single value"
                                     : ": expected a list of " + std::to_string(width) +
                                           " values, one per key path"));
        return {};
      }
    }
    if (axis.paths.front() == "nodes" && overrides.nodes) continue;  // --nodes replaces it
    if (axis.paths.front() == "seed" && overrides.seed) continue;    // and --seed too
    axes.push_back(std::move(axis));
  }
  return axes;
}

transport::Result<ScenarioPlan> Expand(const YAML::Node& root, const std::string& source,
                                       const ScenarioOverrides& overrides) {
  ErrorSink sink;
  const std::vector<Axis> axes = ReadAxes(root["sweep"], overrides, sink);
  if (sink.failed())
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           source + ": " + sink.error()->message);
  YAML::Node base = YAML::Clone(root);
  base.remove("sweep");
  if (overrides.seed) base["seed"] = *overrides.seed;
  if (overrides.nodes) base["nodes"] = *overrides.nodes;

  const YAML::Node sweep = root["sweep"];
  const bool seed_fixed = sweep.IsDefined() && sweep.IsMap() && sweep["seed"].IsDefined();

  ScenarioPlan plan;
  YamlReader base_reader(base, "", &sink);
  plan.base = ReadScenario(base_reader);
  base_reader.Finish();
  if (sink.failed())
    return transport::Fail(transport::ErrorCode::kInvalidArgument,
                           source + ": " + sink.error()->message);
  size_t total = 1;
  for (const Axis& axis : axes) {
    plan.swept.insert(plan.swept.end(), axis.paths.begin(), axis.paths.end());
    total *= axis.values.size();
    if (total > kSweepPointsMax) {
      return transport::Fail(
          transport::ErrorCode::kInvalidArgument,
          source + ": sweep: more than " + std::to_string(kSweepPointsMax) + " points");
    }
  }
  for (std::string* key : {&plan.base.plot.x, &plan.base.plot.series}) {
    if (*key == "nodes" && overrides.nodes) key->clear();  // that axis gave way to --nodes
    if (!key->empty() &&
        std::find(plan.swept.begin(), plan.swept.end(), *key) == plan.swept.end()) {
      return transport::Fail(transport::ErrorCode::kInvalidArgument,
                             source + ": plot: '" + *key + "' is not a swept key path");
    }
  }
  for (size_t index = 0; index < total; ++index) {
    YAML::Node doc = YAML::Clone(base);
    ScenarioPoint point;
    size_t rest = index;
    for (size_t a = axes.size(); a-- > 0;) {  // the last axis varies fastest
      const std::vector<YAML::Node>& step = axes[a].values[rest % axes[a].values.size()];
      rest /= axes[a].values.size();
      for (size_t j = axes[a].paths.size(); j-- > 0;) {
        SetPath(doc, SplitPath(axes[a].paths[j]), 0, step[j]);
        point.swept.insert(point.swept.begin(), SweptValue{axes[a].paths[j], step[j].Scalar()});
      }
    }
    if (overrides.nodes) doc["nodes"] = *overrides.nodes;
    ErrorSink point_sink;
    YamlReader reader(doc, "", &point_sink);
    point.scenario = ReadScenario(reader);
    reader.Finish();
    if (point_sink.failed()) {
      std::string where;
      for (const SweptValue& v : point.swept)
        where += (where.empty() ? "" : ", ") + v.path + "=" + v.value;
      return transport::Fail(transport::ErrorCode::kInvalidArgument,
                             source + ": sweep point " + std::to_string(index) + " (" + where +
                                 "): " + point_sink.error()->message);
    }
    // Point i runs with seed + i, an independent sample, unless the seed is swept (each point
    // runs with its swept seed, so points that share one share their churn and workload
    // draws) or the sweep over it was replaced by --seed (every point runs with that seed).
    if (!seed_fixed) point.scenario.seed = plan.base.seed + index;
    plan.points.push_back(std::move(point));
  }
  return plan;
}

}  // namespace

transport::Result<ScenarioPlan> ParseScenario(const std::string& text, const std::string& source,
                                              const ScenarioOverrides& overrides) {
  auto root = LoadYaml(text, source);
  if (!root) return tl::unexpected(root.error());
  try {
    return Expand(*root, source, overrides);
  } catch (const YAML::Exception& e) {
    return transport::Fail(transport::ErrorCode::kParse, source + ": " + e.msg);
  }
}

transport::Result<ScenarioPlan> LoadScenarioFile(const std::string& path,
                                                 const ScenarioOverrides& overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return transport::Fail(transport::ErrorCode::kIo, path + ": cannot open");
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return transport::Fail(transport::ErrorCode::kIo, path + ": cannot read");
  return ParseScenario(text.str(), path, overrides);
}

}  // namespace skillnode::sim::scenario
