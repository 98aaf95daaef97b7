// ConfigSection: reads one map of a configuration file into typed fields, checking each value
// and collecting every problem as "<path>: <reason> (line N)".
//
// Each accessor names a key the section knows; reading a key that is absent leaves the
// default in place. Finish() then reports every key that no accessor named, with the list of
// keys the section accepts, so a typo is never silently ignored. Scalars must be plain for
// numbers and booleans (`port: "80"` is a string, not a number).
#ifndef SKILLNODE_NODE_CONFIG_CONFIG_READER_H_
#define SKILLNODE_NODE_CONFIG_CONFIG_READER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/yaml/yaml_tree.h"
#include "transport/clock.h"

namespace skillnode::node::config {

// The one YAML reader (discovery/yaml: SKILL.md front matter reads YAML too).
using discovery::yaml::kYamlDepthMax;
using discovery::yaml::ParseYaml;
using discovery::yaml::YamlValue;

// Durations' bounds, in the milliseconds ConfigSection::Millis takes.
constexpr int64_t kHourMs = 3600 * 1000;
constexpr int64_t kDayMs = 24 * kHourMs;
// A word-search field weight (discovery.search.fieldWeights): the defaults are 1 to 3.
constexpr double kFieldWeightMax = 100;

// A setter for ConfigSection::Int that stores into `out`, an integer field of any width (Int has
// checked the range).
template <typename T>
std::function<void(int64_t)> Store(T& out) {
  return [&out](int64_t value) { out = static_cast<T>(value); };
}

class ConfigSection {
 public:
  // `value` may be null (the section is absent: every field keeps its default) or kNull (an
  // empty section, the same). Anything but a map is reported once.
  ConfigSection(const YamlValue* value, std::string path, std::vector<std::string>& errors);

  void Bool(std::string_view key, bool& out);
  void Int(std::string_view key, int64_t min, int64_t max, const std::function<void(int64_t)>& set);
  void Double(std::string_view key, double min, double max, double& out);
  void Millis(std::string_view key, int64_t min_ms, int64_t max_ms, transport::Duration& out);
  void String(std::string_view key, std::string& out);
  // A string checked by `parse`, which returns an error reason or nullopt and stores on success.
  void Text(std::string_view key,
            const std::function<std::optional<std::string>(const std::string&)>& parse);
  // A list of strings (each checked by `parse`, as in Text) of at most `items_max` items.
  void StringList(std::string_view key, size_t items_max,
                  const std::function<std::optional<std::string>(const std::string&)>& parse,
                  std::vector<std::string>& out);
  // The raw value of `key` (marked known), or nullptr when absent.
  const YamlValue* Raw(std::string_view key);
  // A nested section (absent: an empty one).
  ConfigSection Sub(std::string_view key);

  // Reports keys no accessor named. Call once, after every accessor.
  void Finish();

  const std::string& path() const { return path_; }
  std::string PathOf(std::string_view key) const;
  void Error(std::string_view key, const std::string& reason, const YamlValue* at);

 private:
  const YamlValue* Scalar(std::string_view key, const char* expected);

  const YamlValue* map_ = nullptr;
  std::string path_;
  std::vector<std::string>& errors_;
  std::vector<std::string> known_;
};

// Integer text in decimal (an optional leading '-'), or nullopt.
std::optional<int64_t> ParseInteger(std::string_view text);

}  // namespace skillnode::node::config

#endif  // SKILLNODE_NODE_CONFIG_CONFIG_READER_H_
