#include "sim/workload.h"

#include <algorithm>
#include <cmath>

namespace skillnode::sim {
namespace {

Duration SecondsOf(double s) { return Duration(static_cast<int64_t>(std::llround(s * 1e6))); }

uint16_t Clamp16(size_t value) { return static_cast<uint16_t>(std::min<size_t>(value, 65535)); }

}  // namespace

Workload::Workload(const Scenario& scenario, Population& population, EventQueue& queue,
                   const TimePoint& now, TimePoint epoch, uint64_t seed, LaneTraces& traces)
    : scenario_(scenario),
      population_(population),
      queue_(queue),
      now_(now),
      epoch_(epoch),
      traces_(traces),
      rng_(seed) {
  for (size_t lane = 0; lane < EventQueue::kLanes; ++lane) lane_rngs_.push_back(rng_.Fork());
}

void Workload::SetWindow(TimePoint begin, TimePoint end) {
  window_begin_ = begin;
  window_end_ = end;
}

void Workload::ScheduleStatic(TimePoint start) {
  static_start_ = start;
  static_issued_ = 0;
  queue_.Push(start, EventKind::kStaticLookup, 0, 0);
}

TimePoint Workload::last_start() const {
  if (scenario_.churn.enabled) return window_end_;
  const double span_s =
      static_cast<double>(scenario_.workload.lookups - 1) / scenario_.workload.lookup_rate_per_s;
  return static_start_ + SecondsOf(span_s);
}

void Workload::OnStaticLookup() {
  if (auto asker = population_.RandomJoinedHonest(rng_)) Launch(*asker, true);
  ++static_issued_;
  if (static_issued_ < scenario_.workload.lookups) {
    const double at_s = static_cast<double>(static_issued_) / scenario_.workload.lookup_rate_per_s;
    queue_.Push(static_start_ + SecondsOf(at_s), EventKind::kStaticLookup, 0, 0);
  }
}

void Workload::StartPeriodic(uint32_t slot) {
  const double offset_s = rng_.NextDouble() * scenario_.workload.lookup_interval_s;
  queue_.Push(now_ + SecondsOf(offset_s), EventKind::kNodeLookup, slot,
              population_.slot(slot).incarnation);
}

// Runs in the slot's lane.
void Workload::OnNodeLookup(uint32_t slot, uint64_t incarnation) {
  const Population::Slot& s = population_.slot(slot);
  if (!population_.joined(slot) || s.incarnation != incarnation) return;
  const TimePoint now = population_.Now();
  Launch(slot, now >= window_begin_ && now < window_end_);
  const TimePoint next = now + SecondsOf(scenario_.workload.lookup_interval_s);
  if (next < window_end_) queue_.Push(next, EventKind::kNodeLookup, slot, incarnation);
}

kademlia::Key Workload::PickTarget(uint32_t asker, Rng& rng) {
  kademlia::Key target;
  if (scenario_.workload.targets == TargetKind::kRandomNode) {
    if (auto node = population_.RandomJoinedHonest(rng, asker)) {
      return population_.slot(*node).host->id();
    }
  }
  rng.Fill(target.mutable_bytes());
  return target;
}

// Runs in the asker's lane (periodic lookups) or on the control side (static ones).
void Workload::Launch(uint32_t slot, bool measured) {
  Population::Slot& s = population_.slot(slot);
  kademlia::Node* node = s.host->node();
  const std::optional<size_t> lane = queue_.running_lane();
  const size_t side = lane.value_or(EventQueue::kLanes);
  const kademlia::Key target = PickTarget(slot, lane ? lane_rngs_[*lane] : rng_);
  const TimePoint now = population_.Now();
  std::vector<LookupRecord>& records = started_[side];
  size_t index = kUnmeasured;
  if (measured) {
    index = (size_t{side} << kSideShift) | records.size();
    LookupRecord record;
    record.started = now;
    record.start_s = ToMillis(now - epoch_) / 1000;
    record.asker = slot;
    record.incarnation = s.incarnation;
    records.push_back(record);
    ++pending_;
  }
  const bool started = node->FindNode(
      now, target,
      [this, index, slot](const kademlia::LookupResult& result) { Complete(index, slot, result); });
  if (!started && measured) {
    records.back().status = LookupStatus::kRefused;
    --pending_;
  }
  population_.Reschedule(slot);
}

void Workload::Complete(size_t index, uint32_t slot, const kademlia::LookupResult& result) {
  TraceHash& trace = traces_[EventQueue::LaneOf(slot)];
  trace.Add(static_cast<uint64_t>(result.finished.time_since_epoch().count()));
  trace.Add((uint64_t{slot} << 32) | static_cast<uint32_t>(result.stats.hops));
  trace.Add(result.target.FirstWord() ^ result.stats.messages);
  for (const kademlia::Contact& c : result.closest) trace.Add(c.id.FirstWord());
  if (index == kUnmeasured) return;
  LookupRecord& record = started_[index >> kSideShift][index & ((size_t{1} << kSideShift) - 1)];
  --pending_;
  const Population::Slot& s = population_.slot(slot);
  if (s.leaving || !s.host || s.incarnation != record.incarnation) {
    record.status = LookupStatus::kInterrupted;
    return;
  }
  record.status = LookupStatus::kCompleted;
  record.latency_ms = ToMillis(result.stats.duration);
  record.hops = Clamp16(static_cast<size_t>(std::max(0, result.stats.hops)));
  record.messages = Clamp16(result.stats.messages);
  record.failures = Clamp16(result.stats.failures);
  record.result_size = static_cast<uint8_t>(std::min<size_t>(result.closest.size(), 255));
  Check(record, s.host->id(), result);
}

void Workload::Check(LookupRecord& record, const kademlia::NodeId& asker,
                     const kademlia::LookupResult& result) {
  const Oracle& live = population_.live();
  const TimePoint started = record.started;
  const auto eligible = [&](const OracleEntry& e) {
    return e.id != asker && population_.slot(e.slot).joined_at <= started;
  };
  const size_t k = scenario_.kademlia.routing.bucket_size;
  const std::vector<OracleEntry> truth = live.Closest(result.target, k, eligible);
  const std::vector<OracleEntry> honest = live.Closest(result.target, 1, [&](const OracleEntry& e) {
    return eligible(e) && population_.slot(e.slot).kind == HostKind::kHonest;
  });
  size_t overlap = 0, dead = 0;
  bool exact = result.closest.size() == truth.size();
  for (size_t i = 0; i < result.closest.size(); ++i) {
    const kademlia::NodeId& id = result.closest[i].id;
    const bool in_truth =
        std::any_of(truth.begin(), truth.end(), [&](const OracleEntry& e) { return e.id == id; });
    overlap += in_truth;
    dead += !live.Contains(id);
    if (exact && truth[i].id != id) exact = false;
    if (!honest.empty() && honest.front().id == id) record.success = true;
  }
  record.truth_size = static_cast<uint8_t>(truth.size());
  record.overlap = static_cast<uint8_t>(overlap);
  record.dead = static_cast<uint8_t>(std::min<size_t>(dead, 255));
  record.exact = exact;
  if (honest.empty()) record.success = true;  // nothing to find: an empty answer is right
}

bool Workload::Settled() const {
  if (pending_ > 0) return false;
  if (scenario_.churn.enabled) return now_ >= window_end_;
  return static_issued_ >= scenario_.workload.lookups;
}

size_t Workload::measured() const {
  size_t n = 0;
  for (const std::vector<LookupRecord>& side : started_) n += side.size();
  return n;
}

void Workload::Close() {
  for (std::vector<LookupRecord>& side : started_) {
    for (LookupRecord& record : side) {
      if (record.status == LookupStatus::kPending) {
        const Population::Slot& s = population_.slot(record.asker);
        const bool gone = !s.host || s.incarnation != record.incarnation;
        record.status = gone ? LookupStatus::kInterrupted : LookupStatus::kUnfinished;
      }
      records_.push_back(record);
    }
    side.clear();
  }
  std::stable_sort(records_.begin(), records_.end(),
                   [](const LookupRecord& a, const LookupRecord& b) {
                     return a.started != b.started ? a.started < b.started : a.asker < b.asker;
                   });
  pending_ = 0;
}

}  // namespace skillnode::sim
