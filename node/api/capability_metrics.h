// CapabilityMetrics: what GET /api/v1/discovery/capabilities did, for /metrics
// (discovery-api-capabilities §7.1 under this node's names; docs/api.md lists them):
//
//   skillnode_discovery_capabilities_requests_total{format,status}   status: success, error
//   skillnode_discovery_capabilities_request_duration_seconds{format}  histogram
//   skillnode_discovery_capabilities_cache_hits_total / _cache_misses_total
//   skillnode_discovery_capabilities_cache_size_bytes                  gauge
//   skillnode_discovery_capabilities_filter_usage_total{filter_type}
//
// `format` is json, xml, compact, or unknown for a request whose format parameter was not
// valid. Every series is written from the start (zeros), so a dashboard sees them at once.
#ifndef SKILLNODE_NODE_API_CAPABILITY_METRICS_H_
#define SKILLNODE_NODE_API_CAPABILITY_METRICS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "discovery/capabilities/capability_filter.h"
#include "node/http/prometheus.h"

namespace skillnode::node::api {

// Upper bounds (seconds) of the duration histogram: a cached answer takes tens of
// microseconds, one that waits for the DHT stage up to its timeout.
constexpr std::array<double, 13> kCapabilityLatencyBoundsSeconds = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5};

// The filter_type label values, in the order of CapabilityMetrics::CountFilters.
constexpr std::array<std::string_view, 7> kFilterTypes = {"reasoner", "skill",      "tag",  "agent",
                                                          "health",   "capability", "scene"};

class CapabilityMetrics {
 public:
  // `format`: kFormats index (3 for unknown).
  void Record(size_t format, bool success, double seconds);
  void CountFilters(const discovery::capabilities::CapabilityRequest& request);
  void CountCache(bool hit) { ++(hit ? cache_hits_ : cache_misses_); }
  void Write(http::PrometheusWriter& out, size_t cache_bytes) const;

  static constexpr std::array<std::string_view, 4> kFormats = {"json", "xml", "compact", "unknown"};

 private:
  struct Histogram {
    std::array<uint64_t, kCapabilityLatencyBoundsSeconds.size() + 1> counts{};
    double sum_seconds = 0;
  };
  std::array<std::array<uint64_t, 2>, kFormats.size()> requests_{};  // [format][success]
  std::array<Histogram, kFormats.size()> latency_{};
  std::array<uint64_t, kFilterTypes.size()> filters_{};
  uint64_t cache_hits_ = 0;
  uint64_t cache_misses_ = 0;
};

}  // namespace skillnode::node::api

#endif  // SKILLNODE_NODE_API_CAPABILITY_METRICS_H_
