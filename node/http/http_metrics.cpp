#include "node/http/http_metrics.h"

namespace skillnode::node::http {

void HttpMetrics::Record(std::string_view method, std::string_view route, int status,
                         transport::Duration latency) {
  const std::string route_label(route.empty() ? kUnmatchedRoute : route);
  ++by_route_[{std::string(method), route_label, status}];
  ++requests_;
  auto it = latency_.find(route_label);
  if (it == latency_.end()) it = latency_.emplace(route_label, Histogram{}).first;
  const double seconds = transport::ToMillis(latency) / 1000.0;
  size_t bucket = 0;
  while (bucket < kHttpLatencyBoundsSeconds.size() && seconds > kHttpLatencyBoundsSeconds[bucket]) {
    ++bucket;
  }
  ++it->second.counts[bucket];
  it->second.sum_seconds += seconds;
}

namespace {

void Increment(std::map<std::string, uint64_t, std::less<>>& counts, std::string_view key) {
  auto it = counts.find(key);
  if (it == counts.end()) it = counts.emplace(std::string(key), 0).first;
  ++it->second;
}

}  // namespace

void HttpMetrics::CountTimeout(std::string_view kind) { Increment(timeouts_, kind); }

void HttpMetrics::CountTlsHandshake(std::string_view version) {
  Increment(tls_handshakes_, version);
}

void HttpMetrics::CountTlsFailure(std::string_view reason) { Increment(tls_failures_, reason); }

void HttpMetrics::Write(PrometheusWriter& out, size_t open_connections,
                        size_t closing_connections) const {
  out.Family("skillnode_http_requests_total", "counter",
             "HTTP requests answered, by method, route pattern and status.");
  for (const auto& [key, count] : by_route_) {
    const auto& [method, route, status] = key;
    out.Sample("skillnode_http_requests_total",
               {{"method", method}, {"route", route}, {"status", std::to_string(status)}},
               static_cast<double>(count));
  }
  out.Family("skillnode_http_request_duration_seconds", "histogram",
             "Time from a request's last byte to its answer, by route pattern.");
  for (const auto& [route, histogram] : latency_) {
    out.Histogram("skillnode_http_request_duration_seconds", {{"route", route}},
                  kHttpLatencyBoundsSeconds, histogram.counts, histogram.sum_seconds);
  }
  out.Gauge("skillnode_http_connections",
            "Open HTTP connections, not counting those closing (answered, lingering).",
            static_cast<double>(open_connections));
  out.Gauge("skillnode_http_connections_closing",
            "HTTP connections answered and closing: lingering until the client closes, or "
            "waiting for the close to finish. The connection limit does not count them.",
            static_cast<double>(closing_connections));
  out.Counter("skillnode_http_connections_rejected_total",
              "HTTP connections refused with 503 because the connection limit was reached.",
              static_cast<double>(connections_rejected_));
  out.Counter("skillnode_http_connections_evicted_total",
              "HTTP connections closed at the connection limit to make room for a new one: "
              "each had waited longest, at least node.http.evictAfter, for a request.",
              static_cast<double>(connections_evicted_));
  out.Family("skillnode_http_timeouts_total", "counter",
             "HTTP connections or requests timed out, by kind (idle, request, response).");
  for (const char* kind : {"idle", "request", "response"}) {
    auto it = timeouts_.find(kind);
    out.Sample("skillnode_http_timeouts_total", {{"kind", kind}},
               it == timeouts_.end() ? 0.0 : static_cast<double>(it->second));
  }
  out.Family("skillnode_https_handshakes_total", "counter",
             "TLS handshakes completed on the HTTPS listener, by protocol version.");
  for (const auto& [version, count] : tls_handshakes_) {
    out.Sample("skillnode_https_handshakes_total", {{"version", version}},
               static_cast<double>(count));
  }
  out.Family("skillnode_https_handshake_failures_total", "counter",
             "HTTPS connections cut off before their TLS handshake completed, by reason "
             "(plain_http, bad_handshake, timeout).");
  for (std::string_view reason : kTlsFailureReasons) {
    auto it = tls_failures_.find(reason);
    out.Sample("skillnode_https_handshake_failures_total", {{"reason", std::string(reason)}},
               it == tls_failures_.end() ? 0.0 : static_cast<double>(it->second));
  }
}

}  // namespace skillnode::node::http
