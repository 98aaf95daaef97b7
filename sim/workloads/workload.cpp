#include "sim/workloads/workload.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <optional>
#include <tuple>
#include <variant>

#include "kademlia/wire/wire.h"

namespace skillnode::sim::workloads {
namespace {

transport::Duration SecondsOf(double s) {
  return transport::Duration(static_cast<int64_t>(std::llround(s * 1e6)));
}

// How long after a lookup started a late answer from its responsible node is still noted.
constexpr transport::Duration kLateAnswerWindow = std::chrono::seconds(10);
// How many of a missed lookup's responsible node's nearest live nodes are asked first whether
// their routing table holds it.
constexpr size_t kNearestHoldersFirst = 32;

uint16_t Clamp16(size_t value) { return static_cast<uint16_t>(std::min<size_t>(value, 65535)); }

}  // namespace

Workload::Workload(const scenario::Scenario& scenario, hosts::Population& population,
                   engine::EventQueue& queue, const transport::TimePoint& now,
                   transport::TimePoint epoch, uint64_t seed, LaneTraces& traces)
    : scenario_(scenario),
      population_(population),
      queue_(queue),
      now_(now),
      epoch_(epoch),
      traces_(traces),
      rng_(seed) {
  for (size_t lane = 0; lane < engine::EventQueue::kLanes; ++lane)
    lane_rngs_.push_back(rng_.Fork());
  watching_.resize(population.size());
}

void Workload::SetWindow(transport::TimePoint begin, transport::TimePoint end) {
  window_begin_ = begin;
  window_end_ = end;
}

void Workload::ScheduleStatic(transport::TimePoint start) {
  static_start_ = start;
  static_issued_ = 0;
  queue_.Push(start, engine::EventKind::kStaticLookup, 0, 0);
}

transport::TimePoint Workload::last_start() const {
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
    queue_.Push(static_start_ + SecondsOf(at_s), engine::EventKind::kStaticLookup, 0, 0);
  }
}

void Workload::StartPeriodic(uint32_t slot) {
  const double offset_s = rng_.NextDouble() * scenario_.workload.lookup_interval_s;
  queue_.Push(now_ + SecondsOf(offset_s), engine::EventKind::kNodeLookup, slot,
              population_.slot(slot).incarnation);
}

// Runs in the slot's lane.
void Workload::OnNodeLookup(uint32_t slot, uint64_t incarnation) {
  const hosts::Population::Slot& s = population_.slot(slot);
  if (!population_.joined(slot) || s.incarnation != incarnation) return;
  const transport::TimePoint now = population_.Now();
  Launch(slot, now >= window_begin_ && now < window_end_);
  const transport::TimePoint next = now + SecondsOf(scenario_.workload.lookup_interval_s);
  if (next < window_end_) queue_.Push(next, engine::EventKind::kNodeLookup, slot, incarnation);
}

kademlia::Key Workload::PickTarget(uint32_t asker, transport::Rng& rng) {
  kademlia::Key target;
  if (scenario_.workload.targets == scenario::TargetKind::kRandomNode) {
    if (auto node = population_.RandomJoinedHonest(rng, asker)) {
      return population_.slot(*node).host->id();
    }
  }
  rng.Fill(target.mutable_bytes());
  return target;
}

// Runs in the asker's lane (periodic lookups) or on the control side (static ones).
void Workload::Launch(uint32_t slot, bool measured) {
  hosts::Population::Slot& s = population_.slot(slot);
  kademlia::Node* node = s.host->node();
  const std::optional<size_t> lane = queue_.running_lane();
  const size_t side = lane.value_or(engine::EventQueue::kLanes);
  const kademlia::Key target = PickTarget(slot, lane ? lane_rngs_[*lane] : rng_);
  const transport::TimePoint now = population_.Now();
  std::vector<LookupRecord>& records = started_[side];
  size_t index = kUnmeasured;
  if (measured) {
    index = (size_t{side} << kSideShift) | records.size();
    LookupRecord record;
    record.started = now;
    record.start_s = transport::ToMillis(now - epoch_) / 1000;
    record.asker = slot;
    record.incarnation = s.incarnation;
    const std::vector<OracleEntry> responsible =
        population_.live().Closest(target, 1, [&](const OracleEntry& e) {
          return e.slot != slot && population_.slot(e.slot).kind == hosts::HostKind::kHonest &&
                 !population_.BehindNat(e.slot);  // as Check's truth (network.nat)
        });
    std::vector<Watch>& watches = watching_[slot];
    std::erase_if(watches, [&](const Watch& w) {
      const LookupRecord& r = RecordAt(w.record);
      return r.status != LookupStatus::kPending && now - r.started > kLateAnswerWindow;
    });
    if (!responsible.empty()) {
      const uint32_t r = responsible.front().slot;
      record.responsible = r;
      record.responsible_incarnation = population_.slot(r).incarnation;
      record.responsible_age_s =
          static_cast<float>(transport::ToMillis(now - population_.slot(r).joined_at) / 1000);
      record.responsible_rtt_ms = static_cast<float>(population_.latency().BaseRttMs(slot, r));
      watches.push_back(Watch{index, record.responsible, target, {}});
    }
    records.push_back(record);
    ++pending_;
  }
  const bool started = node->FindNode(
      now, target,
      [this, index, slot](const kademlia::LookupResult& result) { Complete(index, slot, result); });
  if (!started && measured) {
    records.back().status = LookupStatus::kRefused;
    Unwatch(slot, index);
    --pending_;
  }
  population_.Reschedule(slot);
}

void Workload::Complete(size_t index, uint32_t slot, const kademlia::LookupResult& result) {
  engine::TraceHash& trace = traces_[engine::EventQueue::LaneOf(slot)];
  trace.Add(static_cast<uint64_t>(result.finished.time_since_epoch().count()));
  trace.Add((uint64_t{slot} << 32) | static_cast<uint32_t>(result.stats.hops));
  trace.Add(result.target.FirstWord() ^ result.stats.messages);
  for (const kademlia::Contact& c : result.closest) trace.Add(c.id.FirstWord());
  if (index == kUnmeasured) return;
  LookupRecord& record = RecordAt(index);
  --pending_;
  const hosts::Population::Slot& s = population_.slot(slot);
  if (s.leaving || !s.host || s.incarnation != record.incarnation) {
    record.status = LookupStatus::kInterrupted;
    return;
  }
  record.status = LookupStatus::kCompleted;
  record.latency_ms = transport::ToMillis(result.stats.duration);
  record.hops = Clamp16(static_cast<size_t>(std::max(0, result.stats.hops)));
  record.messages = Clamp16(result.stats.messages);
  record.failures = Clamp16(result.stats.failures);
  record.result_size = static_cast<uint8_t>(std::min<size_t>(result.closest.size(), 255));
  Check(record, s.host->id(), result);
  if (!record.success)
    missed_[queue_.running_lane().value_or(engine::EventQueue::kLanes)].push_back(index);
}

void Workload::AnalyseFailures() {
  for (std::vector<size_t>& side : missed_) {
    for (const size_t index : side) {
      LookupRecord& record = RecordAt(index);
      if (record.responsible == kNoResponsible) continue;
      const hosts::Population::Slot& r = population_.slot(record.responsible);
      record.responsible_gone = !r.host || r.incarnation != record.responsible_incarnation;
      if (record.responsible_gone) continue;
      record.responsible_held = HeldByATable(record.responsible, r.host->id());
    }
    side.clear();
  }
}

bool Workload::HeldByATable(uint32_t responsible, const kademlia::NodeId& id) const {
  const auto holds = [&](uint32_t slot) {
    const hosts::Population::Slot& s = population_.slot(slot);
    return slot != responsible && s.host && s.host->node() != nullptr &&
           s.host->node()->routing_table().FindRecord(id) != nullptr;
  };
  // The live nodes nearest to it first: their tables' deepest buckets cover it among few
  // others, so one of them nearly always holds it. Scanning every table for every miss, as
  // before, took most of a 100,000-node run's time.
  for (const OracleEntry& e : population_.live().Closest(id, kNearestHoldersFirst)) {
    if (holds(e.slot)) return true;
  }
  for (uint32_t slot = 0; slot < population_.size(); ++slot) {
    if (holds(slot)) return true;
  }
  return false;
}

LookupRecord& Workload::RecordAt(size_t index) {
  return started_[index >> kSideShift][index & ((size_t{1} << kSideShift) - 1)];
}

void Workload::Unwatch(uint32_t asker, size_t index) {
  std::erase_if(watching_[asker], [&](const Watch& w) { return w.record == index; });
}

void Workload::OnArrival(transport::TimePoint arrival, uint32_t from, uint32_t to,
                         std::span<const uint8_t> bytes) {
  if (from >= watching_.size()) return;
  std::optional<kademlia::wire::Message> message;  // decoded once, for the first matching watch
  for (Watch& watch : watching_[from]) {
    if (watch.responsible != to) continue;
    if (!message) {
      auto decoded = kademlia::wire::Decode(bytes);
      if (!decoded) return;
      message = std::move(*decoded);
    }
    const auto* find = std::get_if<kademlia::wire::FindNodeBody>(&message->body);
    if (find == nullptr) return;
    if (find->target != watch.target) continue;
    LookupRecord& record = RecordAt(watch.record);
    record.responsible_asked = true;
    if (arrival == transport::kTimeNever) continue;  // lost on the way
    watch.txids.push_back(message->header.txid);
    const double ms = transport::ToMillis(arrival - record.started);
    if (record.contact_ms < 0 || ms < record.contact_ms) record.contact_ms = ms;
  }
}

void Workload::OnDelivery(uint32_t to, uint32_t from, std::span<const uint8_t> bytes) {
  if (to >= watching_.size()) return;
  std::optional<kademlia::wire::Message> message;  // decoded once, for the first matching watch
  for (const Watch& watch : watching_[to]) {
    if (watch.responsible != from || watch.txids.empty()) continue;
    if (!message) {
      auto decoded = kademlia::wire::Decode(bytes);
      if (!decoded) return;
      message = std::move(*decoded);
    }
    if (!std::holds_alternative<kademlia::wire::NodesBody>(message->body)) return;
    if (std::find(watch.txids.begin(), watch.txids.end(), message->header.txid) ==
        watch.txids.end()) {
      continue;
    }
    LookupRecord& record = RecordAt(watch.record);
    if (record.heep_ms >= 0 || record.late_ms >= 0) continue;
    const double answered_ms = transport::ToMillis(population_.Now() - record.started);
    if (record.status == LookupStatus::kPending) {
      record.heep_ms = answered_ms + population_.latency().BaseRttMs(to, from) / 2;
    } else {
      record.late_ms = answered_ms;
    }
  }
}

void Workload::Check(LookupRecord& record, const kademlia::NodeId& asker,
                     const kademlia::LookupResult& result) {
  const Oracle& live = population_.live();
  const transport::TimePoint started = record.started;
  // A node behind a NAT answers only the peers it just wrote to: it can hold nothing for the
  // network, so the truth is among the nodes anyone can reach (network.nat).
  const auto eligible = [&](const OracleEntry& e) {
    return e.id != asker && population_.slot(e.slot).joined_at <= started &&
           !population_.BehindNat(e.slot);
  };
  const size_t k = scenario_.kademlia.routing.bucket_size;
  const std::vector<OracleEntry> truth = live.Closest(result.target, k, eligible);
  const std::vector<OracleEntry> honest = live.Closest(result.target, 1, [&](const OracleEntry& e) {
    return eligible(e) && population_.slot(e.slot).kind == hosts::HostKind::kHonest;
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
  AnalyseFailures();
  const auto earlier = [](const LookupRecord& a, const LookupRecord& b) {
    return a.started != b.started ? a.started < b.started : a.asker < b.asker;
  };
  size_t total = 0;
  for (std::vector<LookupRecord>& side : started_) {
    for (LookupRecord& record : side) {
      if (record.status == LookupStatus::kPending) {
        const hosts::Population::Slot& s = population_.slot(record.asker);
        const bool gone = !s.host || s.incarnation != record.incarnation;
        record.status = gone ? LookupStatus::kInterrupted : LookupStatus::kUnfinished;
      }
      ClassifyFailure(record);
    }
    std::stable_sort(side.begin(), side.end(), earlier);
    total += side.size();
  }
  for (std::vector<Watch>& watches : watching_) watches.clear();
  // The sides merged into one vector of exactly their size, the earliest head first and a tie
  // to the lower side: the order a stable sort of the sides laid end to end gives, without a
  // sort's buffer or a growing vector's copies (at 10^6 nodes the records are gigabytes).
  assert(records_.empty());
  records_.reserve(total);
  std::array<size_t, std::tuple_size_v<decltype(started_)>> next{};
  while (records_.size() < total) {
    size_t from = started_.size();
    for (size_t i = 0; i < started_.size(); ++i) {
      if (next[i] == started_[i].size()) continue;
      if (from == started_.size() || earlier(started_[i][next[i]], started_[from][next[from]])) {
        from = i;
      }
    }
    records_.push_back(started_[from][next[from]++]);
  }
  for (std::vector<LookupRecord>& side : started_) std::vector<LookupRecord>().swap(side);
  pending_ = 0;
}

}  // namespace skillnode::sim::workloads
