#include "node/http/prometheus.h"

#include <cmath>
#include <cstdio>

namespace skillnode::node::http {

std::string FormatMetricValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char text[64];
  // Exact for integers below 2^53, which is every counter in practice.
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
    std::snprintf(text, sizeof(text), "%.0f", value);
  } else {
    std::snprintf(text, sizeof(text), "%.9g", value);
  }
  return text;
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void PrometheusWriter::Family(std::string_view name, std::string_view type, std::string_view help) {
  if (families_.contains(name)) return;
  families_.emplace(name);
  text_ += "# HELP ";
  text_ += name;
  text_ += ' ';
  text_ += help;
  text_ += "\n# TYPE ";
  text_ += name;
  text_ += ' ';
  text_ += type;
  text_ += '\n';
}

void PrometheusWriter::Sample(std::string_view name, const MetricLabels& labels, double value) {
  text_ += name;
  if (!labels.empty()) {
    text_ += '{';
    for (size_t i = 0; i < labels.size(); ++i) {
      if (i > 0) text_ += ',';
      text_ += labels[i].first;
      text_ += "=\"";
      text_ += EscapeLabelValue(labels[i].second);
      text_ += '"';
    }
    text_ += '}';
  }
  text_ += ' ';
  text_ += FormatMetricValue(value);
  text_ += '\n';
}

void PrometheusWriter::Counter(std::string_view name, std::string_view help, double value) {
  Family(name, "counter", help);
  Sample(name, {}, value);
}

void PrometheusWriter::Gauge(std::string_view name, std::string_view help, double value) {
  Family(name, "gauge", help);
  Sample(name, {}, value);
}

void PrometheusWriter::CounterBy(
    std::string_view name, std::string_view help, std::string_view label,
    std::initializer_list<std::pair<std::string_view, double>> samples) {
  Family(name, "counter", help);
  for (const auto& [value, count] : samples) Sample(name, {{label, std::string(value)}}, count);
}

void PrometheusWriter::Histogram(std::string_view name, const MetricLabels& labels,
                                 std::span<const double> bounds, std::span<const uint64_t> counts,
                                 double sum) {
  const std::string bucket = std::string(name) + "_bucket";
  uint64_t cumulative = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    cumulative += counts[i];
    MetricLabels with_le = labels;
    with_le.emplace_back("le", i < bounds.size() ? FormatMetricValue(bounds[i]) : "+Inf");
    Sample(bucket, with_le, static_cast<double>(cumulative));
  }
  Sample(std::string(name) + "_sum", labels, sum);
  Sample(std::string(name) + "_count", labels, static_cast<double>(cumulative));
}

}  // namespace skillnode::node::http
