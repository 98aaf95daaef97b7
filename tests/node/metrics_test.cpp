// The /metrics page: Prometheus text format, checked line by line by a small validator.
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "kademlia/node.h"
#include "node/http/http_metrics.h"
#include "node/http/prometheus.h"
#include "node/node_metrics.h"

namespace skillnode::node {
namespace {

using Catch::Contains;

class NullTransport final : public transport::Transport {
 public:
  void Send(const transport::Endpoint&, std::span<const uint8_t>) override {}
};

// Checks the exposition format: HELP then TYPE once per family, every sample of a declared
// family, a family's samples contiguous, well-formed names, labels and values. Returns the
// problems found (empty: valid) and counts the samples.
std::vector<std::string> Validate(const std::string& text, size_t* samples) {
  static const std::regex kSample(
      R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? )"
      R"((-?[0-9.e+-]+|\+Inf|-Inf|NaN)$)");
  static const std::regex kHelp(R"(^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+$)");
  static const std::regex kType(R"(^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram)$)");
  std::vector<std::string> problems;
  std::map<std::string, std::string> types;
  std::set<std::string> finished;
  std::string current;
  std::istringstream lines(text);
  std::string line;
  *samples = 0;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, kHelp)) continue;
    if (std::regex_match(line, m, kType)) {
      if (types.contains(m[1])) problems.push_back("second TYPE for " + m[1].str());
      types[m[1]] = m[2];
      continue;
    }
    if (!std::regex_match(line, m, kSample)) {
      problems.push_back("malformed: " + line);
      continue;
    }
    std::string family = m[1];
    for (const char* suffix : {"_bucket", "_sum", "_count"}) {
      const std::string base = family.substr(0, family.size() - std::strlen(suffix));
      if (family.ends_with(suffix) && types.contains(base) && types[base] == "histogram") {
        family = base;
      }
    }
    if (!types.contains(family)) problems.push_back("no TYPE for " + family);
    if (family != current) {
      if (finished.contains(family)) problems.push_back("samples of " + family + " not together");
      if (!current.empty()) finished.insert(current);
      current = family;
    }
    ++*samples;
  }
  return problems;
}

TEST_CASE("counters, gauges and labels are written in the text format", "[unit]") {
  http::PrometheusWriter out;
  out.Counter("a_total", "A counter.", 3);
  out.Gauge("b", "A gauge.", 0.25);
  out.Family("c_total", "counter", "Labelled.");
  out.Sample("c_total", {{"route", "/x"}, {"why", "quote \" slash \\ nl \n"}}, 1e15);
  out.Family("c_total", "counter", "Written once.");
  CHECK(out.text() ==
        "# HELP a_total A counter.\n# TYPE a_total counter\na_total 3\n"
        "# HELP b A gauge.\n# TYPE b gauge\nb 0.25\n"
        "# HELP c_total Labelled.\n# TYPE c_total counter\n"
        "c_total{route=\"/x\",why=\"quote \\\" slash \\\\ nl \\n\"} 1000000000000000\n");
}

TEST_CASE("a counter by one label writes its family once and a sample per value, in order",
          "[unit]") {
  http::PrometheusWriter out;
  out.CounterBy("e_total", "By reason.", "reason", {{"full", 3}, {"rate \"x\"", 0}});
  out.CounterBy("e_total", "Not again.", "reason", {{"late", 1}});
  CHECK(out.text() ==
        "# HELP e_total By reason.\n# TYPE e_total counter\n"
        "e_total{reason=\"full\"} 3\ne_total{reason=\"rate \\\"x\\\"\"} 0\n"
        "e_total{reason=\"late\"} 1\n");
  size_t samples = 0;
  CHECK(Validate(out.text(), &samples).empty());
  CHECK(samples == 3);
}

TEST_CASE("histograms are cumulative with +Inf, _sum and _count", "[unit]") {
  http::PrometheusWriter out;
  out.Family("d_seconds", "histogram", "Durations.");
  const double bounds[] = {0.1, 1};
  const uint64_t counts[] = {2, 0, 3};
  out.Histogram("d_seconds", {{"route", "/r"}}, bounds, counts, 4.5);
  CHECK_THAT(out.text(), Contains("d_seconds_bucket{route=\"/r\",le=\"0.1\"} 2\n"
                                  "d_seconds_bucket{route=\"/r\",le=\"1\"} 2\n"
                                  "d_seconds_bucket{route=\"/r\",le=\"+Inf\"} 5\n"
                                  "d_seconds_sum{route=\"/r\"} 4.5\n"
                                  "d_seconds_count{route=\"/r\"} 5\n"));
  size_t samples = 0;
  CHECK(Validate(out.text(), &samples).empty());
  CHECK(samples == 5);
}

TEST_CASE("the node's whole metrics page is valid exposition text", "[unit]") {
  NullTransport transport;
  transport::NullLogger logger;
  transport::Rng rng(7);
  kademlia::KademliaConfig config;
  kademlia::Node node(config, kademlia::Identity::Generate(), transport, rng, logger,
                      transport::kTimeZero);
  node.FindNode(transport::kTimeZero + transport::Seconds(1), kademlia::Key(),
                nullptr);  // completes: empty table
  http::HttpMetrics http;
  http.Record("GET", "/health", 200, transport::Millis(1));
  http.Record("GET", "", 404, transport::Duration(300));
  http.CountTimeout("idle");
  transport::uv::UdpStats udp;
  udp.dropped_oversize = 2;
  http::PrometheusWriter out;
  WriteNodeMetrics(out, node, udp);
  http.Write(out, 3, 2);
  size_t samples = 0;
  const auto problems = Validate(out.text(), &samples);
  for (const auto& p : problems) FAIL_CHECK(p);
  CHECK(samples > 50);
  const std::string& text = out.text();
  CHECK_THAT(text, Contains("skillnode_rpcs_total{type=\"find_node\",result=\"timeout\"} 0\n"));
  CHECK_THAT(text, Contains("skillnode_datagrams_dropped_total{reason=\"malformed\"} 0\n"));
  CHECK_THAT(text, Contains("skillnode_datagrams_dropped_total{reason=\"oversize\"} 2\n"));
  CHECK_THAT(text, Contains("skillnode_lookup_duration_seconds_count 1\n"));
  CHECK_THAT(text, Contains("skillnode_lookup_duration_seconds_bucket{le=\"0.005\"} 1\n"));
  CHECK_THAT(text, Contains("skillnode_http_requests_total{method=\"GET\",route=\"/health\",status="
                            "\"200\"} 1\n"));
  CHECK_THAT(text, Contains("route=\"unmatched\",status=\"404\""));
  CHECK_THAT(text, Contains("skillnode_http_request_duration_seconds_bucket{route=\"/health\","
                            "le=\"0.001\"} 1\n"));
  CHECK_THAT(text, Contains("skillnode_http_connections 3\n"));
  CHECK_THAT(text, Contains("skillnode_http_connections_closing 2\n"));
  CHECK_THAT(text, Contains("skillnode_http_timeouts_total{kind=\"idle\"} 1\n"));
}

TEST_CASE("the validator itself catches interleaved families and missing types", "[unit]") {
  size_t samples = 0;
  CHECK_FALSE(Validate("# TYPE a counter\n# TYPE b counter\na 1\nb 1\na 2\n", &samples).empty());
  CHECK_FALSE(Validate("c 1\n", &samples).empty());
  CHECK_FALSE(Validate("# TYPE a counter\na{x=1} 1\n", &samples).empty());
}

}  // namespace
}  // namespace skillnode::node
