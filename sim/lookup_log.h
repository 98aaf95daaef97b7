// LookupLog: one record per measured lookup, checked against the oracle, and their summary.
//
// Every lookup the workload starts in the measured window gets a record. When it completes,
// its result is compared with the truth: the k closest nodes that were live and joined when
// it started and still live at its end (the asker left out). A record ends in one of four
// states; none is dropped from the counts:
//   completed   the node called back with a result;
//   refused     Node::FindNode said no (lookups_max): counted as failed and mismatched;
//   interrupted the asking node left during the lookup (not the lookup's fault, so left out
//               of success_rate, but counted);
//   unfinished  the run ended first: counted as failed and mismatched.
#ifndef SKILLNODE_SIM_LOOKUP_LOG_H_
#define SKILLNODE_SIM_LOOKUP_LOG_H_

#include <cstdint>
#include <span>
#include <vector>

#include "transport/clock.h"

namespace skillnode::sim {

enum class LookupStatus : uint8_t { kPending, kCompleted, kRefused, kInterrupted, kUnfinished };

struct LookupRecord {
  TimePoint started = kTimeZero;
  double start_s = 0;  // since the simulation's epoch
  double latency_ms = 0;
  uint32_t asker = 0;
  uint32_t incarnation = 0;
  uint16_t hops = 0;
  uint16_t messages = 0;
  uint16_t failures = 0;  // requests that timed out or were refused
  uint8_t result_size = 0;
  uint8_t truth_size = 0;
  uint8_t overlap = 0;  // how many of the true k closest the result holds
  uint8_t dead = 0;     // result contacts no longer live at the end
  LookupStatus status = LookupStatus::kPending;
  bool success = false;  // the result holds the true closest honest node
  bool exact = false;    // the result is the true k closest, in order
};

struct LookupSummary {
  uint64_t lookups = 0;  // measured lookups that count: all but interrupted
  uint64_t completed = 0;
  uint64_t refused = 0;
  uint64_t interrupted = 0;
  uint64_t unfinished = 0;
  uint64_t successes = 0;
  uint64_t oracle_mismatches = 0;  // counted lookups whose result is not the exact truth
  uint64_t dead_in_results = 0;
  double success_rate = 0;
  double overlap_mean = 0;  // mean share of the true k closest found
  double hops_mean = 0;
  double hops_p99 = 0;
  double messages_per_lookup = 0;
  double failures_per_lookup = 0;
  double latency_ms_mean = 0;
  double latency_ms_p50 = 0;
  double latency_ms_p99 = 0;
};

LookupSummary Summarize(std::span<const LookupRecord> records);

// Nearest-rank percentile (q in [0, 1]) of `values`; 0 when empty. Reorders `values`.
double Percentile(std::vector<double>& values, double q);

}  // namespace skillnode::sim

#endif  // SKILLNODE_SIM_LOOKUP_LOG_H_
