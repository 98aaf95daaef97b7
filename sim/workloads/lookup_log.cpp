#include "sim/workloads/lookup_log.h"

#include <algorithm>
#include <cmath>

namespace skillnode::sim::workloads {

double Percentile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  const size_t index = std::min(values.size() - 1, rank == 0 ? 0 : rank - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                   values.end());
  return values[index];
}

std::string_view FailureCauseName(FailureCause cause) {
  switch (cause) {
    case FailureCause::kNone:
      return "";
    case FailureCause::kGone:
      return "gone";
    case FailureCause::kUnknown:
      return "unknown";
    case FailureCause::kUnreached:
      return "unreached";
    case FailureCause::kLost:
      return "lost";
    case FailureCause::kUnanswered:
      return "unanswered";
    case FailureCause::kSlow:
      return "slow";
    case FailureCause::kAnswered:
      return "answered";
  }
  return "";
}

void ClassifyFailure(LookupRecord& r) {
  r.cause = FailureCause::kNone;
  if (r.success || r.status == LookupStatus::kInterrupted || r.responsible == kNoResponsible) {
    return;
  }
  if (r.responsible_gone) {
    r.cause = FailureCause::kGone;
  } else if (r.contact_ms < 0 && r.responsible_asked) {
    r.cause = FailureCause::kLost;
  } else if (r.contact_ms < 0) {
    r.cause = !r.responsible_held ? FailureCause::kUnknown : FailureCause::kUnreached;
  } else if (r.heep_ms >= 0) {
    r.cause = FailureCause::kAnswered;
  } else {
    r.cause = r.late_ms >= 0 ? FailureCause::kSlow : FailureCause::kUnanswered;
  }
}

LookupSummary Summarize(std::span<const LookupRecord> records) {
  LookupSummary s;
  std::vector<double> hops, latency, heep, ages, failed_ages;
  for (std::vector<double>* v : {&hops, &latency, &heep, &ages}) v->reserve(records.size());
  double overlap = 0, messages = 0, failures = 0;
  for (const LookupRecord& r : records) {
    switch (r.status) {
      case LookupStatus::kInterrupted:
        ++s.interrupted;
        continue;
      case LookupStatus::kRefused:
        ++s.refused;
        break;
      case LookupStatus::kPending:
      case LookupStatus::kUnfinished:
        ++s.unfinished;
        break;
      case LookupStatus::kCompleted:
        ++s.completed;
        break;
    }
    ++s.lookups;
    ++s.failures_by_cause[static_cast<size_t>(r.cause)];
    if (r.responsible_age_s >= 0) {
      ages.push_back(r.responsible_age_s);
      if (!r.success) failed_ages.push_back(r.responsible_age_s);
    }
    if (r.responsible != kNoResponsible) {
      heep.push_back(r.heep_ms >= 0 ? r.heep_ms : kHeepFailureMs);
      s.heep_failures += r.heep_ms < 0;
    }
    s.successes += r.success;
    s.oracle_mismatches += !r.exact;
    if (r.status != LookupStatus::kCompleted) continue;
    s.dead_in_results += r.dead;
    overlap += r.truth_size == 0 ? 1.0 : static_cast<double>(r.overlap) / r.truth_size;
    messages += r.messages;
    failures += r.failures;
    hops.push_back(r.hops);
    latency.push_back(r.latency_ms);
  }
  if (s.lookups > 0) s.success_rate = static_cast<double>(s.successes) / s.lookups;
  if (s.completed > 0) {
    const auto n = static_cast<double>(s.completed);
    s.overlap_mean = overlap / n;
    s.messages_per_lookup = messages / n;
    s.failures_per_lookup = failures / n;
    double hop_sum = 0, latency_sum = 0;
    for (double h : hops) hop_sum += h;
    for (double l : latency) latency_sum += l;
    s.hops_mean = hop_sum / n;
    s.latency_ms_mean = latency_sum / n;
  }
  s.heep_lookups = heep.size();
  if (!heep.empty()) {
    s.reached_rate =
        static_cast<double>(s.heep_lookups - s.heep_failures) / static_cast<double>(s.heep_lookups);
    double heep_sum = 0;
    for (double h : heep) heep_sum += h;
    s.heep_latency_ms_mean = heep_sum / static_cast<double>(heep.size());
  }
  s.heep_latency_ms_p50 = Percentile(heep, 0.50);
  s.heep_latency_ms_p99 = Percentile(heep, 0.99);
  s.failures_by_cause[0] = 0;
  s.responsible_age_s_p50 = Percentile(ages, 0.50);
  s.failed_responsible_age_s_p50 = Percentile(failed_ages, 0.50);
  s.hops_p99 = Percentile(hops, 0.99);
  s.latency_ms_p50 = Percentile(latency, 0.50);
  s.latency_ms_p99 = Percentile(latency, 0.99);
  return s;
}

}  // namespace skillnode::sim::workloads
