// RunSummary: the numbers one simulation (one sweep point) produces, as written to
// summary.json by report.h.
#ifndef SKILLNODE_SIM_REPORT_SUMMARY_H_
#define SKILLNODE_SIM_REPORT_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/adversaries/adversary.h"
#include "sim/hosts/churn.h"
#include "sim/network/network.h"
#include "sim/report/node_totals.h"
#include "sim/report/reach_census.h"
#include "sim/scenario/scenario.h"
#include "sim/workloads/lookup_log.h"
#include "sim/workloads/record_workload.h"
#include "sim/workloads/word_results.h"

namespace skillnode::sim::report {

// IPv4 (20) and UDP (8) header bytes of every datagram.
constexpr double kIpUdpHeaderBytes = 28;

struct RunSummary {
  uint64_t seed = 0;
  size_t nodes = 0;  // live nodes asked for (honest + adversaries)
  size_t honest = 0;
  size_t adversaries = 0;
  size_t slots = 0;  // hosts' places, online or not (more than nodes under churn)
  workloads::LookupSummary lookups;
  // Stutzbach & Rejaie (2006): about log2(N) / (1.333 + log2 k) hops to the closest node.
  double hops_predicted = 0;
  double rtt_mean_ms = 0;       // mean RTT between two random nodes under the latency model
  double latency_floor_ms = 0;  // hops_mean x rtt_mean_ms: lookup latency with no waiting
  // Traffic in the measured window per host-second online: UDP payload, and with the IPv4 and
  // UDP headers (kIpUdpHeaderBytes per datagram) as a link carries it.
  double online_host_seconds = 0;
  double bytes_per_node_per_s = 0;
  double ip_bytes_per_node_per_s = 0;
  // Scenarios with records: gets that found their record / gets checked (record_workload.h).
  std::optional<double> records_available_rate;
  std::optional<double> records_available_rate_publisher_up;
  workloads::RecordCounters records;
  std::string records_status;
  // Scenarios with words (word_workload.h).
  std::optional<workloads::WordSummary> words;
  uint64_t trace_hash = 0;
  double sim_seconds = 0;
  double wall_seconds = 0;
  unsigned threads = 1;  // threads the point's event-queue lanes ran on
  double peak_rss_mb = 0;
  // The allocator, whether it asked for transparent huge pages, and how much of the heap had
  // them at the end of the run (sim/engine/heap.h).
  std::string_view allocator = "system";
  bool malloc_huge_pages = false;
  double huge_pages_mb = 0;
  uint64_t events = 0;
  network::NetworkCounters network;
  NodeTotals node_totals;
  adversaries::AdversaryCounters adversary;
  // Scenarios with adversaries: their share of the honest routing tables at the end.
  std::optional<adversaries::TableCensus> adversary_tables;
  hosts::ChurnCounters churn;
  uint64_t join_retries = 0;
  // Scenarios with network.nat (reach_census.h).
  std::optional<ReachCensus> reach;
};

struct PointResult {
  std::vector<scenario::SweptValue> swept;
  RunSummary summary;
  std::vector<workloads::LookupRecord> lookups;
  std::vector<workloads::RecordMiss> record_misses;   // scenarios with records
  std::vector<workloads::WordQueryRow> word_queries;  // scenarios with words
};

// Peak resident set size of this process so far, in MiB.
double PeakRssMb();

}  // namespace skillnode::sim::report

#endif  // SKILLNODE_SIM_REPORT_SUMMARY_H_
