// PrometheusWriter: builds a /metrics page in the Prometheus text exposition format (0.0.4).
//
//   # HELP skillnode_rpcs_total RPCs this node sent, by message type and result.
//   # TYPE skillnode_rpcs_total counter
//   skillnode_rpcs_total{type="ping",result="replied"} 12
//
// HELP and TYPE are written once per family, before its first sample; label values are
// escaped (backslash, double quote, newline). Histograms take per-bucket (not cumulative)
// counts and write the cumulative _bucket series with le bounds, +Inf, _sum and _count.
#ifndef SKILLNODE_NODE_HTTP_PROMETHEUS_H_
#define SKILLNODE_NODE_HTTP_PROMETHEUS_H_

#include <cstdint>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skillnode::node::http {

using MetricLabels = std::vector<std::pair<std::string_view, std::string>>;

// The content type of the page.
constexpr std::string_view kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

class PrometheusWriter {
 public:
  // Writes HELP and TYPE ("counter", "gauge", "histogram") unless already written.
  void Family(std::string_view name, std::string_view type, std::string_view help);
  // One sample; `name` may carry a suffix of its family (_bucket, _sum, _count).
  void Sample(std::string_view name, const MetricLabels& labels, double value);

  // A family with one unlabelled sample.
  void Counter(std::string_view name, std::string_view help, double value);
  void Gauge(std::string_view name, std::string_view help, double value);
  // A counter family with one sample per value of one label, in the order given:
  //   CounterBy("x_total", "help", "reason", {{"full", 3}, {"rate", 1}})
  void CounterBy(std::string_view name, std::string_view help, std::string_view label,
                 std::initializer_list<std::pair<std::string_view, double>> samples);
  // One labelled series of a histogram family (call Family first). `bounds` are the upper
  // bounds; `counts` has one more entry than `bounds` (the +Inf bucket), not cumulative.
  void Histogram(std::string_view name, const MetricLabels& labels, std::span<const double> bounds,
                 std::span<const uint64_t> counts, double sum);

  const std::string& text() const { return text_; }
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
  std::set<std::string, std::less<>> families_;
};

// A number as Prometheus prints it: integers without a fraction, +Inf, NaN.
std::string FormatMetricValue(double value);
// A label value with \\, \" and \n escaped.
std::string EscapeLabelValue(std::string_view value);

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_PROMETHEUS_H_
