#include "node/api/capability_metrics.h"

#include <string>

namespace skillnode::node::api {

namespace {
constexpr std::string_view kPrefix = "skillnode_discovery_capabilities_";
std::string Name(std::string_view suffix) { return std::string(kPrefix) + std::string(suffix); }
}  // namespace

void CapabilityMetrics::Record(size_t format, bool success, double seconds) {
  ++requests_[format][success ? 1 : 0];
  Histogram& histogram = latency_[format];
  size_t bucket = 0;
  while (bucket < kCapabilityLatencyBoundsSeconds.size() &&
         seconds > kCapabilityLatencyBoundsSeconds[bucket]) {
    ++bucket;
  }
  ++histogram.counts[bucket];
  histogram.sum_seconds += seconds;
}

void CapabilityMetrics::CountFilters(const discovery::capabilities::CapabilityRequest& request) {
  const std::array<bool, kFilterTypes.size()> used = {
      request.reasoner.has_value(), request.skill.has_value(),  !request.tags.empty(),
      request.agents_set,           request.health.has_value(), !request.capability.empty(),
      !request.scene.empty()};
  for (size_t i = 0; i < used.size(); ++i) filters_[i] += used[i] ? 1 : 0;
}

void CapabilityMetrics::Write(http::PrometheusWriter& out, size_t cache_bytes) const {
  const std::string requests = Name("requests_total");
  out.Family(requests, "counter", "Capability discovery requests, by format and result.");
  for (size_t f = 0; f < kFormats.size(); ++f) {
    for (size_t success : {1, 0}) {
      out.Sample(requests,
                 {{"format", std::string(kFormats[f])}, {"status", success ? "success" : "error"}},
                 static_cast<double>(requests_[f][success]));
    }
  }
  const std::string duration = Name("request_duration_seconds");
  out.Family(duration, "histogram", "Time to answer a capability discovery request, by format.");
  for (size_t f = 0; f < kFormats.size(); ++f) {
    out.Histogram(duration, {{"format", std::string(kFormats[f])}}, kCapabilityLatencyBoundsSeconds,
                  latency_[f].counts, latency_[f].sum_seconds);
  }
  out.Counter(Name("cache_hits_total"), "Capability requests answered from the cached snapshot.",
              static_cast<double>(cache_hits_));
  out.Counter(Name("cache_misses_total"),
              "Capability requests that rebuilt the snapshot (first, expired or invalidated).",
              static_cast<double>(cache_misses_));
  out.Gauge(Name("cache_size_bytes"), "Text held by the cached capability snapshot.",
            static_cast<double>(cache_bytes));
  const std::string filters = Name("filter_usage_total");
  out.Family(filters, "counter", "Capability requests that used each filter.");
  for (size_t i = 0; i < kFilterTypes.size(); ++i) {
    out.Sample(filters, {{"filter_type", std::string(kFilterTypes[i])}},
               static_cast<double>(filters_[i]));
  }
}

}  // namespace skillnode::node::api
