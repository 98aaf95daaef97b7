#include "sim/scenario/yaml_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace skillnode::sim::scenario {
namespace {

std::string Quote(std::string_view text) {
  constexpr size_t kShownMax = 40;  // keeps error lines readable whatever the file holds
  std::string shown(text.substr(0, kShownMax));
  if (text.size() > kShownMax) shown += "...";
  return "'" + shown + "'";
}

std::string NumberText(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

transport::Result<YAML::Node> LoadYaml(const std::string& text, const std::string& source) {
  try {
    YAML::Node root = YAML::Load(text);
    if (!root.IsDefined() || root.IsNull()) return YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap())
      return Fail(transport::ErrorCode::kParse, source + ": expected a map at the top");
    return root;
  } catch (const YAML::Exception& e) {
    return Fail(transport::ErrorCode::kParse,
                source + ": line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

YamlReader::YamlReader(YAML::Node node, std::string path, ErrorSink* sink)
    : node_(std::move(node)), path_(std::move(path)), sink_(sink) {
  if (node_.IsDefined() && !node_.IsNull() && !node_.IsMap()) {
    sink_->Record((path_.empty() ? std::string("document") : path_) + ": expected a map");
    node_ = YAML::Node(YAML::NodeType::Map);
  }
}

std::string YamlReader::KeyPath(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

YAML::Node YamlReader::Child(std::string_view key) const {
  if (!node_.IsDefined() || !node_.IsMap()) return YAML::Node();
  for (const auto& entry : node_) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
  }
  return YAML::Node();
}

bool YamlReader::Has(std::string_view key) const {
  const YAML::Node child = Child(key);
  return child.IsDefined() && !child.IsNull();
}

void YamlReader::Use(std::string_view key) {
  if (std::find(used_.begin(), used_.end(), key) == used_.end()) used_.emplace_back(key);
}

void YamlReader::Fail(std::string_view key, const std::string& reason) {
  sink_->Record(KeyPath(key) + ": " + reason);
}

std::optional<std::string> YamlReader::Scalar(std::string_view key) {
  Use(key);
  const YAML::Node child = Child(key);
  if (!child.IsDefined() || child.IsNull()) return std::nullopt;
  if (!child.IsScalar()) {
    Fail(key, "expected a single value");
    return std::nullopt;
  }
  return child.Scalar();
}

YamlReader YamlReader::Map(std::string_view key) {
  Use(key);
  return YamlReader(Child(key), KeyPath(key), sink_);
}

std::vector<YamlReader> YamlReader::MapList(std::string_view key) {
  Use(key);
  std::vector<YamlReader> out;
  const YAML::Node child = Child(key);
  if (!child.IsDefined() || child.IsNull()) return out;
  if (!child.IsSequence()) {
    Fail(key, "expected a list");
    return out;
  }
  for (size_t i = 0; i < child.size(); ++i) {
    out.emplace_back(child[i], KeyPath(key) + "[" + std::to_string(i) + "]", sink_);
  }
  return out;
}

std::optional<double> YamlReader::ParseNumber(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<uint64_t> YamlReader::ParseInteger(std::string_view text) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

double YamlReader::Number(std::string_view key, double fallback, double min, double max) {
  const auto text = Scalar(key);
  if (!text) return fallback;
  const auto value = ParseNumber(*text);
  if (!value) {
    Fail(key, "expected a number, got " + Quote(*text));
    return fallback;
  }
  if (*value < min || *value > max) {
    Fail(key, "must be between " + NumberText(min) + " and " + NumberText(max) + ", got " +
                  Quote(*text));
    return fallback;
  }
  return *value;
}

uint64_t YamlReader::Integer(std::string_view key, uint64_t fallback, uint64_t min, uint64_t max) {
  const auto text = Scalar(key);
  if (!text) return fallback;
  const auto value = ParseInteger(*text);
  if (!value) {
    Fail(key, "expected a whole number, got " + Quote(*text));
    return fallback;
  }
  if (*value < min || *value > max) {
    Fail(key, "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                  Quote(*text));
    return fallback;
  }
  return *value;
}

bool YamlReader::Bool(std::string_view key, bool fallback) {
  const auto text = Scalar(key);
  if (!text) return fallback;
  if (*text == "true" || *text == "yes" || *text == "on") return true;
  if (*text == "false" || *text == "no" || *text == "off") return false;
  Fail(key, "expected true or false, got " + Quote(*text));
  return fallback;
}

std::string YamlReader::String(std::string_view key, std::string fallback) {
  auto text = Scalar(key);
  return text ? *text : fallback;
}

int YamlReader::Choice(std::string_view key, std::initializer_list<std::string_view> names,
                       int fallback) {
  const auto text = Scalar(key);
  if (!text) return fallback;
  int index = 0;
  std::string known;
  for (std::string_view name : names) {
    if (name == *text) return index;
    known += (index++ == 0 ? "" : ", ") + std::string(name);
  }
  Fail(key, "expected one of " + known + ", got " + Quote(*text));
  return fallback;
}

std::vector<std::string> YamlReader::StringList(std::string_view key) {
  Use(key);
  std::vector<std::string> out;
  const YAML::Node child = Child(key);
  if (!child.IsDefined() || child.IsNull()) return out;
  if (!child.IsSequence()) {
    Fail(key, "expected a list");
    return out;
  }
  for (size_t i = 0; i < child.size(); ++i) {
    if (!child[i].IsScalar()) {
      Fail(std::string(key) + "[" + std::to_string(i) + "]", "expected a single value");
      return {};
    }
    out.push_back(child[i].Scalar());
  }
  return out;
}

std::vector<std::vector<double>> YamlReader::NumberMatrix(std::string_view key, double min,
                                                          double max) {
  Use(key);
  std::vector<std::vector<double>> out;
  const YAML::Node child = Child(key);
  if (!child.IsDefined() || child.IsNull()) return out;
  if (!child.IsSequence()) {
    Fail(key, "expected a list of rows");
    return out;
  }
  for (size_t i = 0; i < child.size(); ++i) {
    const std::string row_key = std::string(key) + "[" + std::to_string(i) + "]";
    if (!child[i].IsSequence()) {
      Fail(row_key, "expected a list of numbers");
      return {};
    }
    std::vector<double> row;
    for (size_t j = 0; j < child[i].size(); ++j) {
      const YAML::Node cell = child[i][j];
      const auto value = cell.IsScalar() ? ParseNumber(cell.Scalar()) : std::nullopt;
      if (!value || *value < min || *value > max) {
        Fail(row_key + "[" + std::to_string(j) + "]",
             "expected a number between " + NumberText(min) + " and " + NumberText(max));
        return {};
      }
      row.push_back(*value);
    }
    out.push_back(std::move(row));
  }
  return out;
}

void YamlReader::Finish() {
  if (!node_.IsDefined() || !node_.IsMap()) return;
  for (const auto& entry : node_) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "?";
    if (std::find(used_.begin(), used_.end(), key) == used_.end()) {
      Fail(key, "unknown key");
      return;
    }
  }
}

}  // namespace skillnode::sim::scenario
