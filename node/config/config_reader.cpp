#include "node/config/config_reader.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace skillnode::node::config {
namespace {

std::string FormatNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

std::optional<double> ParseDouble(const std::string& text) {
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<int64_t> ParseInteger(std::string_view text) {
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

ConfigSection::ConfigSection(const YamlValue* value, std::string path,
                             std::vector<std::string>& errors)
    : path_(std::move(path)), errors_(errors) {
  if (value == nullptr || value->kind == YamlValue::Kind::kNull) return;
  if (value->kind != YamlValue::Kind::kMap) {
    errors_.push_back((path_.empty() ? std::string("configuration") : path_) +
                      ": expected a map, got " + value->Describe() + " (line " +
                      std::to_string(value->line) + ")");
    return;
  }
  map_ = value;
}

std::string ConfigSection::PathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void ConfigSection::Error(std::string_view key, const std::string& reason, const YamlValue* at) {
  std::string line = PathOf(key) + ": " + reason;
  if (at != nullptr && at->line > 0) line += " (line " + std::to_string(at->line) + ")";
  errors_.push_back(std::move(line));
}

const YamlValue* ConfigSection::Raw(std::string_view key) {
  known_.emplace_back(key);
  return map_ != nullptr ? map_->Find(key) : nullptr;
}

const YamlValue* ConfigSection::Scalar(std::string_view key, const char* expected) {
  const YamlValue* value = Raw(key);
  if (value == nullptr) return nullptr;
  if (value->kind != YamlValue::Kind::kScalar) {
    Error(key, std::string("expected ") + expected + ", got " + value->Describe(), value);
    return nullptr;
  }
  return value;
}

void ConfigSection::Bool(std::string_view key, bool& out) {
  const YamlValue* value = Scalar(key, "true or false");
  if (value == nullptr) return;
  if (!value->quoted &&
      (value->scalar == "true" || value->scalar == "True" || value->scalar == "TRUE")) {
    out = true;
  } else if (!value->quoted &&
             (value->scalar == "false" || value->scalar == "False" || value->scalar == "FALSE")) {
    out = false;
  } else {
    Error(key, "expected true or false, got " + value->Describe(), value);
  }
}

void ConfigSection::Int(std::string_view key, int64_t min, int64_t max,
                        const std::function<void(int64_t)>& set) {
  const YamlValue* value = Scalar(key, "an integer");
  if (value == nullptr) return;
  const auto parsed = value->quoted ? std::nullopt : ParseInteger(value->scalar);
  if (!parsed) return Error(key, "expected an integer, got " + value->Describe(), value);
  if (*parsed < min || *parsed > max) {
    return Error(key,
                 "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                     ", got " + std::to_string(*parsed),
                 value);
  }
  set(*parsed);
}

void ConfigSection::Double(std::string_view key, double min, double max, double& out) {
  const YamlValue* value = Scalar(key, "a number");
  if (value == nullptr) return;
  const auto parsed = value->quoted ? std::nullopt : ParseDouble(value->scalar);
  if (!parsed) return Error(key, "expected a number, got " + value->Describe(), value);
  if (*parsed < min || *parsed > max) {
    return Error(key,
                 "must be between " + FormatNumber(min) + " and " + FormatNumber(max) + ", got " +
                     value->scalar,
                 value);
  }
  out = *parsed;
}

void ConfigSection::Millis(std::string_view key, int64_t min_ms, int64_t max_ms,
                           transport::Duration& out) {
  Int(key, min_ms, max_ms, [&out](int64_t ms) { out = skillnode::transport::Millis(ms); });
}

void ConfigSection::String(std::string_view key, std::string& out) {
  const YamlValue* value = Scalar(key, "text");
  if (value != nullptr) out = value->scalar;
}

void ConfigSection::Text(
    std::string_view key,
    const std::function<std::optional<std::string>(const std::string&)>& parse) {
  const YamlValue* value = Scalar(key, "text");
  if (value == nullptr) return;
  if (auto problem = parse(value->scalar)) Error(key, *problem, value);
}

void ConfigSection::StringList(
    std::string_view key, size_t items_max,
    const std::function<std::optional<std::string>(const std::string&)>& parse,
    std::vector<std::string>& out) {
  const YamlValue* list = Raw(key);
  if (list == nullptr || list->kind == YamlValue::Kind::kNull) return;
  if (list->kind != YamlValue::Kind::kSequence) {
    return Error(key, "expected a list, got " + list->Describe(), list);
  }
  if (list->items.size() > items_max) {
    return Error(key,
                 "at most " + std::to_string(items_max) + " entries, got " +
                     std::to_string(list->items.size()),
                 list);
  }
  std::vector<std::string> items;
  for (size_t i = 0; i < list->items.size(); ++i) {
    const YamlValue& item = list->items[i];
    const std::string item_key = std::string(key) + "[" + std::to_string(i) + "]";
    if (item.kind != YamlValue::Kind::kScalar) {
      Error(item_key, "expected text, got " + item.Describe(), &item);
      continue;
    }
    if (auto problem = parse(item.scalar)) {
      Error(item_key, *problem, &item);
      continue;
    }
    items.push_back(item.scalar);
  }
  out = std::move(items);
}

ConfigSection ConfigSection::Sub(std::string_view key) {
  return ConfigSection(Raw(key), PathOf(key), errors_);
}

void ConfigSection::Finish() {
  if (map_ == nullptr) return;
  for (const auto& [name, value] : map_->entries) {
    bool known = false;
    for (const std::string& k : known_) known = known || k == name;
    if (known) continue;
    std::string list;
    for (const std::string& k : known_) list += (list.empty() ? "" : ", ") + k;
    Error(name, "unknown key (expected one of: " + list + ")", &value);
  }
}

}  // namespace skillnode::node::config
