// HttpMetrics: what the HTTP server served, for /metrics.
//
// Requests are counted by method, route pattern (not the raw path, so ids in paths do not
// multiply series; "unmatched" for 404s and requests refused before routing) and status, with
// a latency histogram per route from the request's last byte to its answer.
#ifndef SKILLNODE_NODE_HTTP_HTTP_METRICS_H_
#define SKILLNODE_NODE_HTTP_HTTP_METRICS_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "node/http/prometheus.h"
#include "transport/clock.h"

namespace skillnode::node::http {

// Upper bounds (seconds) of the HTTP latency histogram: local answers take well under a
// millisecond, answers that wait for DHT lookups up to seconds.
constexpr std::array<double, 12> kHttpLatencyBoundsSeconds = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5, 10};

// Route label for requests that matched no route or never reached routing.
constexpr std::string_view kUnmatchedRoute = "unmatched";

// Why an HTTPS connection was cut off before its handshake completed: a plain-text request,
// a handshake OpenSSL refused, or none completed within node.https.handshakeTimeout.
constexpr std::array<std::string_view, 3> kTlsFailureReasons = {"plain_http", "bad_handshake",
                                                                "timeout"};

class HttpMetrics {
 public:
  void Record(std::string_view method, std::string_view route, int status,
              transport::Duration latency);
  // Connections refused because connections_max were open; connections closed for idling.
  void CountRejectedConnection() { ++connections_rejected_; }
  // Connections that waited for a request at connections_max, closed for a newcomer.
  void CountEvictedConnection() { ++connections_evicted_; }
  void CountTimeout(std::string_view kind);  // "idle", "request", "response"
  // HTTPS: handshakes completed by protocol version ("TLSv1.3"), and connections cut off
  // before one completed, by reason (kTlsFailureReasons).
  void CountTlsHandshake(std::string_view version);
  void CountTlsFailure(std::string_view reason);

  void Write(PrometheusWriter& out, size_t open_connections, size_t closing_connections) const;
  uint64_t requests() const { return requests_; }

 private:
  struct Histogram {
    std::array<uint64_t, kHttpLatencyBoundsSeconds.size() + 1> counts{};
    double sum_seconds = 0;
  };

  std::map<std::tuple<std::string, std::string, int>, uint64_t> by_route_;
  std::map<std::string, Histogram, std::less<>> latency_;
  std::map<std::string, uint64_t, std::less<>> timeouts_;
  std::map<std::string, uint64_t, std::less<>> tls_handshakes_;
  std::map<std::string, uint64_t, std::less<>> tls_failures_;
  uint64_t requests_ = 0;
  uint64_t connections_rejected_ = 0;
  uint64_t connections_evicted_ = 0;
};

}  // namespace skillnode::node::http

#endif  // SKILLNODE_NODE_HTTP_HTTP_METRICS_H_
