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
//
// Two latencies are kept. `latency_ms` runs until the lookup completes, that is until its k
// closest contacts have answered (or been given up on). `heep_ms` is Heep's (R/Kademlia,
// 2010, measured with OverSim's KBR test application): an iterative lookup ends at the first
// answer from the responsible node — the true closest live honest node when the lookup
// started — and the test message then goes straight to it, so heep_ms is the time that first
// answer reaches the asker plus the one-way delay from the asker to the responsible node (the
// latency model's, without jitter). A lookup whose asker never hears from the responsible
// node is a Heep failure, counted as kHeepFailureMs. `contact_ms`, the first arrival of the
// asker's request at the responsible node, is kept beside it.
#ifndef SKILLNODE_SIM_WORKLOADS_LOOKUP_LOG_H_
#define SKILLNODE_SIM_WORKLOADS_LOOKUP_LOG_H_

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "transport/clock.h"

namespace skillnode::sim::workloads {

// What a Heep failure counts as in the Heep mean latency.
constexpr double kHeepFailureMs = 10'000;
// LookupRecord::responsible when no honest node was live to be responsible.
constexpr uint32_t kNoResponsible = UINT32_MAX;

enum class LookupStatus : uint8_t { kPending, kCompleted, kRefused, kInterrupted, kUnfinished };

// Why a counted lookup missed the true closest honest node, from the oracle's view of its
// responsible node (the closest when the lookup started), in the order they are tested:
//   gone        it left before the lookup ended;
//   unknown     no live routing table held it when the lookup ended (not even the asker's);
//   unreached   some live tables held it, but the lookup never sent it a request;
//   lost        the lookup sent it requests, and none arrived;
//   unanswered  a request reached it, and no answer ever reached the asker;
//   slow        its first answer reached the asker after the lookup had ended;
//   answered    its answer came in time, yet the result left it out.
enum class FailureCause : uint8_t {
  kNone,
  kGone,
  kUnknown,
  kUnreached,
  kLost,
  kUnanswered,
  kSlow,
  kAnswered
};
std::string_view FailureCauseName(FailureCause cause);

struct LookupRecord {
  transport::TimePoint started = transport::kTimeZero;
  double start_s = 0;  // since the simulation's epoch
  double latency_ms = 0;
  double contact_ms = -1;  // negative: no request reached the responsible node
  double heep_ms = -1;     // negative: no answer from it reached the asker (a Heep failure)
  double late_ms = -1;     // its first answer, when that reached the asker after the lookup ended
  float responsible_rtt_ms = 0;    // between the asker and it (the model's, before jitter)
  float responsible_age_s = -1;    // since it joined, when the lookup started
  bool responsible_held = false;   // failures: a live routing table held it at the end
  bool responsible_gone = false;   // failures: it left before the lookup ended
  bool responsible_asked = false;  // the asker sent it a request for the target
  uint32_t asker = 0;
  uint32_t responsible = kNoResponsible;  // its slot
  uint32_t responsible_incarnation = 0;
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
  FailureCause cause = FailureCause::kNone;
};

// Sets record.cause for a counted lookup that missed (FailureCause), else kNone.
void ClassifyFailure(LookupRecord& record);

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
  // Heep's metric over the counted lookups that had a responsible node: the mean with each
  // failure as kHeepFailureMs, its percentiles (the same way), and the failures.
  uint64_t heep_lookups = 0;
  uint64_t heep_failures = 0;
  // The share of those the responsible node answered: the lookup reached the closest honest
  // node, which (since an adversary never leads back to an honest node, sim/adversaries/)
  // only a path free of adversaries can do. S/Kademlia's success measure.
  double reached_rate = 0;
  double heep_latency_ms_mean = 0;
  double heep_latency_ms_p50 = 0;
  double heep_latency_ms_p99 = 0;
  // Counted lookups that missed, by FailureCause (index: the cause's value; 0 unused), and
  // the median age of the responsible node over those misses and over all lookups.
  std::array<uint64_t, 8> failures_by_cause{};
  double failed_responsible_age_s_p50 = 0;
  double responsible_age_s_p50 = 0;
};

LookupSummary Summarize(std::span<const LookupRecord> records);

// Nearest-rank percentile (q in [0, 1]) of `values`; 0 when empty. Reorders `values`.
double Percentile(std::vector<double>& values, double q);

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_LOOKUP_LOG_H_
