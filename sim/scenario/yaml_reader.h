// YamlReader: typed, path-aware access to one YAML map, without exceptions escaping.
//
// yaml-cpp throws; this is the one place skillsim touches it (docs/architecture.md "Code rules":
// throwing libraries are wrapped once). A reader walks one map of the document. Every accessor
// takes a key, a default for an absent key and the accepted range, and returns a value whatever
// happens: on a bad value it returns the default and records the first error, with the key's full
// path ("network.latency.rtt_ms: expected a number, got 'fast'"), in the ErrorSink it shares with
// its children. Finish() refuses keys nobody asked for. Callers check the sink once at the end
// instead of after every field.
#ifndef SKILLNODE_SIM_SCENARIO_YAML_READER_H_
#define SKILLNODE_SIM_SCENARIO_YAML_READER_H_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "transport/result.h"

namespace skillnode::sim::scenario {

// The first error recorded while reading one document.
class ErrorSink {
 public:
  void Record(std::string message) {
    if (!error_)
      error_ = transport::Error{transport::ErrorCode::kInvalidArgument, std::move(message)};
  }
  bool failed() const { return error_.has_value(); }
  const std::optional<transport::Error>& error() const { return error_; }

 private:
  std::optional<transport::Error> error_;
};

// Loads a YAML document from text. `source` names it in errors (a file name).
[[nodiscard]] transport::Result<YAML::Node> LoadYaml(const std::string& text,
                                                     const std::string& source);

class YamlReader {
 public:
  // `node` should be a map; an absent (undefined) or null node reads as an empty map. `path`
  // is the node's key path ("" for the document root).
  YamlReader(YAML::Node node, std::string path, ErrorSink* sink);

  bool Has(std::string_view key) const;
  const std::string& path() const { return path_; }
  ErrorSink& sink() const { return *sink_; }

  // A nested map (possibly absent: then every accessor returns its default).
  YamlReader Map(std::string_view key);
  // A sequence of maps.
  std::vector<YamlReader> MapList(std::string_view key);

  double Number(std::string_view key, double fallback, double min, double max);
  uint64_t Integer(std::string_view key, uint64_t fallback, uint64_t min, uint64_t max);
  bool Bool(std::string_view key, bool fallback);
  std::string String(std::string_view key, std::string fallback);
  // One of `names`; returns its index, or `fallback` when absent.
  int Choice(std::string_view key, std::initializer_list<std::string_view> names, int fallback);
  std::vector<std::string> StringList(std::string_view key);
  std::vector<std::vector<double>> NumberMatrix(std::string_view key, double min, double max);

  // Records an error for `key` under this map.
  void Fail(std::string_view key, const std::string& reason);
  // Refuses the first key of this map that no accessor asked for.
  void Finish();

  // Scalar text parsing shared with the sweep code.
  static std::optional<double> ParseNumber(std::string_view text);
  static std::optional<uint64_t> ParseInteger(std::string_view text);

 private:
  std::string KeyPath(std::string_view key) const;
  // The scalar at `key`, or nullopt (absent or an error, already recorded).
  std::optional<std::string> Scalar(std::string_view key);
  YAML::Node Child(std::string_view key) const;
  void Use(std::string_view key);

  YAML::Node node_;
  std::string path_;
  ErrorSink* sink_;
  std::vector<std::string> used_;
};

}  // namespace skillnode::sim::scenario

#endif  // SKILLNODE_SIM_SCENARIO_YAML_READER_H_
