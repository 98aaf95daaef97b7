#include "sim/workloads/record_workload.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

namespace skillnode::sim::workloads {

using engine::SecondsOf;

uint32_t RecordTtlSeconds(double republish_s) {
  const double ttl = std::ceil(republish_s * kRecordTtlPerRepublish);
  return static_cast<uint32_t>(std::clamp(ttl, double{kademlia::store::kRecordTtlMinSeconds},
                                          double{kademlia::store::kRecordTtlMaxSeconds}));
}

std::string_view MissKindName(MissKind kind) {
  switch (kind) {
    case MissKind::kAsked:
      return "asked";
    case MissKind::kNear:
      return "near";
    case MissKind::kFar:
      return "far";
    case MissKind::kLost:
      return "lost";
  }
  return "lost";
}

RecordCounters& RecordCounters::operator+=(const RecordCounters& o) {
  published += o.published;
  publishes_done += o.publishes_done;
  gets += o.gets;
  gets_refused += o.gets_refused;
  gets_interrupted += o.gets_interrupted;
  gets_checked += o.gets_checked;
  gets_found += o.gets_found;
  gets_checked_publisher_up += o.gets_checked_publisher_up;
  gets_found_publisher_up += o.gets_found_publisher_up;
  missed_asked += o.missed_asked;
  missed_near += o.missed_near;
  missed_far += o.missed_far;
  missed_lost += o.missed_lost;
  gets_no_target += o.gets_no_target;
  records_rejected += o.records_rejected;
  records_unknown += o.records_unknown;
  return *this;
}

RecordWorkload::RecordWorkload(const scenario::Scenario& scenario, hosts::Population& population,
                               engine::EventQueue& queue, const transport::TimePoint& now,
                               transport::TimePoint epoch, uint64_t seed,
                               Workload::LaneTraces& traces)
    : scenario_(scenario),
      population_(population),
      queue_(queue),
      now_(now),
      epoch_(epoch),
      traces_(traces),
      rng_(seed),
      get_interval_(SecondsOf(60 / scenario.records.gets_per_node_per_min)),
      republish_(SecondsOf(scenario.records.republish_s)),
      ttl_seconds_(RecordTtlSeconds(scenario.records.republish_s)),
      by_slot_(population.size()) {}

void RecordWorkload::SetWindow(transport::TimePoint begin, transport::TimePoint end) {
  window_begin_ = begin;
  window_end_ = end;
}

transport::TimePoint RecordWorkload::ttl_end_after_stop(transport::TimePoint stopped) const {
  return stopped + transport::Seconds(ttl_seconds_) -
         std::min<transport::Duration>(republish_, transport::Seconds(ttl_seconds_));
}

bool RecordWorkload::Expected(const Entry& e) const {
  return e.available_from <= population_.Now() && population_.Now() < e.expected_until;
}

void RecordWorkload::OnJoined(uint32_t slot) {
  if (population_.slot(slot).kind != hosts::HostKind::kHonest) return;
  Publish(slot);
  const transport::TimePoint first =
      population_.Now() + SecondsOf(rng_.NextDouble() * transport::ToMillis(get_interval_) / 1000);
  queue_.Push(first, engine::EventKind::kRecordGet, slot, population_.slot(slot).incarnation);
}

void RecordWorkload::OnPublishAll() {
  for (uint32_t slot = 0; slot < population_.honest_slots(); ++slot) {
    if (population_.joined(slot)) OnJoined(slot);
  }
}

void RecordWorkload::Publish(uint32_t slot) {
  hosts::Population::Slot& s = population_.slot(slot);
  kademlia::store::SkillDht* dht = s.host ? s.host->dht() : nullptr;
  if (dht == nullptr) return;
  const double wanted = scenario_.records.records_per_node;
  size_t count = static_cast<size_t>(std::floor(wanted));
  if (rng_.Chance(wanted - std::floor(wanted))) ++count;
  by_slot_[slot].clear();
  for (size_t i = 0; i < count; ++i) {
    kademlia::store::SkillRecord record;
    record.agent_id = "agent-" + std::to_string(slot);
    record.skill_id = "skill-" + std::to_string(slot) + "-" + std::to_string(i);
    record.version = "1.0.0";
    record.skill_type = "tool-skill";
    record.endpoint = "10.0.0.1:7000";
    record.capabilities = DrawCapabilities();
    // The simulated calendar, as a publisher's wall clock: the record's validity window starts
    // now, and a later incarnation's versions number above this one's (and its re-signs).
    record.timestamp_ms = kademlia::store::SimulatedWallClockMs(population_.Now());
    record.sequence = record.timestamp_ms;
    record.ttl_seconds = ttl_seconds_;
    auto signed_record = kademlia::store::SignRecord(std::move(record), s.host->node()->identity(),
                                                     s.host->node()->signatures());
    if (!signed_record) continue;  // cannot happen for these fields; nothing to publish
    Entry e;
    e.slot = slot;
    e.incarnation = s.incarnation;
    e.key = kademlia::store::SkillKey(signed_record->record.skill_id);
    e.identity = kademlia::store::IdentityOf(signed_record->record);
    e.capabilities = signed_record->record.capabilities;
    e.sequence = signed_record->record.sequence;
    const size_t index = entries_.size();
    entries_.push_back(e);
    by_slot_[slot].push_back(index);
    by_identity_[e.identity] = index;
    ++counters_[Side()].published;
    // Runs in the publisher's lane: the entry changes when the batch ends.
    dht->Publish(population_.Now(), *signed_record,
                 [this, slot, index](const kademlia::store::PublishResult& done) {
                   assert(OnSideOf(slot));
                   if (done.stored == 0) return;  // nowhere stored: the republish will try again
                   const std::optional<size_t> lane = queue_.running_lane();
                   if (!lane) return MarkAvailable(index, population_.Now());
                   notes_[*lane].available.emplace_back(index, population_.Now());
                 });
  }
  population_.Reschedule(slot);
}

void RecordWorkload::MarkAvailable(size_t index, transport::TimePoint at) {
  Entry& entry = entries_[index];
  if (entry.available_from != transport::kTimeNever) return;
  entry.available_from = at;
  ++counters_[Side()].publishes_done;
}

void RecordWorkload::EndBatch() {
  std::vector<PendingMiss> misses;
  for (LaneNotes& lane : notes_) {
    for (const auto& [index, at] : lane.available) MarkAvailable(index, at);
    lane.available.clear();
    std::move(lane.misses.begin(), lane.misses.end(), std::back_inserter(misses));
    lane.misses.clear();
  }
  std::stable_sort(misses.begin(), misses.end(), [](const PendingMiss& a, const PendingMiss& b) {
    return a.finished != b.finished ? a.finished < b.finished : a.asker < b.asker;
  });
  for (const PendingMiss& miss : misses) ClassifyMiss(miss);
}

RecordCounters RecordWorkload::counters() const {
  RecordCounters sum;
  for (const RecordCounters& side : counters_) sum += side;
  return sum;
}

std::vector<std::string> RecordWorkload::DrawCapabilities() {
  const size_t pool = scenario_.records.capabilities;
  if (pool == 0) return {"sim"};  // draws nothing: scenarios without a pool keep their streams
  const uint64_t first = rng_.Below(pool);
  std::vector<std::string> names = {"cap-" + std::to_string(first)};
  if (pool > 1 && rng_.Chance(kRecordSecondCapabilityChance)) {
    const uint64_t second = (first + 1 + rng_.Below(pool - 1)) % pool;  // never the first
    names.push_back("cap-" + std::to_string(second));
  }
  return names;
}

kademlia::Key RecordWorkload::GetKey(const Entry& entry) {
  if (scenario_.records.get_by == scenario::GetBy::kSkill) return entry.key;
  const size_t which = entry.capabilities.size() > 1
                           ? static_cast<size_t>(rng_.Below(entry.capabilities.size()))
                           : 0;
  return kademlia::store::CapabilityKey(entry.capabilities[which]);
}

void RecordWorkload::OnStopped(uint32_t slot) {
  for (size_t index : by_slot_[slot]) {
    Entry& e = entries_[index];
    e.expected_until = e.available_from == transport::kTimeNever
                           ? population_.Now()
                           : ttl_end_after_stop(population_.Now());
  }
  by_slot_[slot].clear();
}

std::optional<size_t> RecordWorkload::PickExpected() {
  if (entries_.empty()) return std::nullopt;
  for (int attempt = 0; attempt < kRecordPickAttemptsMax; ++attempt) {
    const size_t index = static_cast<size_t>(rng_.Below(entries_.size()));
    if (Expected(entries_[index])) return index;
  }
  return std::nullopt;
}

void RecordWorkload::OnGet(uint32_t slot, uint64_t incarnation) {
  hosts::Population::Slot& s = population_.slot(slot);
  if (!population_.joined(slot) || s.incarnation != incarnation) return;
  const transport::TimePoint next = population_.Now() + get_interval_;
  if (next < window_end_) queue_.Push(next, engine::EventKind::kRecordGet, slot, incarnation);
  const bool measured = population_.Now() >= window_begin_ && population_.Now() < window_end_;
  RecordCounters& counters = counters_[engine::EventQueue::kLanes];  // a control event
  const auto picked = PickExpected();
  if (!picked) {
    counters.gets_no_target += measured;
    return;
  }
  kademlia::store::SkillDht* dht = s.host->dht();
  const size_t entry = *picked;
  if (measured) {
    ++counters.gets;
    ++pending_;
  }
  // Runs in the asker's lane (on the control side if the asker stops first).
  const bool started = dht->Get(
      population_.Now(), GetKey(entries_[entry]), kademlia::store::GetOptions{},
      [this, slot, incarnation, entry, measured](const kademlia::store::GetResult& result) {
        assert(OnSideOf(slot));
        engine::TraceHash& trace = traces_[engine::EventQueue::LaneOf(slot)];
        trace.Add(static_cast<uint64_t>(result.finished.time_since_epoch().count()));
        trace.Add((uint64_t{slot} << 32) | result.records.size());
        trace.Add(result.key.FirstWord() ^ result.rejected);
        RecordCounters& lane = counters_[Side()];
        lane.records_rejected += result.rejected;
        if (!measured) return;
        --pending_;
        const hosts::Population::Slot& asker = population_.slot(slot);
        if (asker.leaving || !asker.host || asker.incarnation != incarnation) {
          ++lane.gets_interrupted;
          return;
        }
        Check(slot, entry, result);
      });
  if (!started && measured) {
    ++counters.gets_refused;
    --pending_;
  }
  population_.Reschedule(slot);
}

bool RecordWorkload::MadeBy(const Entry& entry, const kademlia::store::SkillRecord& record) const {
  if (record.sequence == entry.sequence) return true;
  // The DHT signs a live record again before its validity window ends: the same fields, a
  // later timestamp, and a higher sequence no later than the simulated clock.
  return record.sequence > entry.sequence && !record.tombstone &&
         record.sequence <= kademlia::store::SimulatedWallClockMs(population_.Now()) &&
         record.capabilities == entry.capabilities;
}

void RecordWorkload::Check(uint32_t asker, size_t index, const kademlia::store::GetResult& result) {
  const Entry& wanted = entries_[index];
  RecordCounters& counters = counters_[Side()];
  ++counters.gets_checked;
  bool found = false;
  for (const kademlia::store::SignedRecordPtr& held : result.records) {
    const kademlia::store::SignedRecord& r = *held;
    const auto known = by_identity_.find(kademlia::store::IdentityOf(r.record));
    if (known == by_identity_.end() || !MadeBy(entries_[known->second], r.record)) {
      ++counters.records_unknown;
      continue;
    }
    if (known->second == index || (kademlia::store::IdentityOf(r.record) == wanted.identity &&
                                   r.record.sequence >= wanted.sequence)) {
      found = found || !r.record.tombstone;
    }
  }
  counters.gets_found += found;
  const bool publisher_up = wanted.expected_until == transport::kTimeNever;
  if (publisher_up) {
    ++counters.gets_checked_publisher_up;
    counters.gets_found_publisher_up += found;
  }
  if (found) return;
  PendingMiss miss{.asker = asker,
                   .entry = index,
                   .publisher_up = publisher_up,
                   .finished = population_.Now(),
                   .key = result.key,
                   .closest = {},
                   .records = result.records.size(),
                   .stats = result.stats};
  miss.closest.reserve(result.closest.size());
  for (const kademlia::Contact& c : result.closest) miss.closest.push_back(c.id);
  const std::optional<size_t> lane = queue_.running_lane();
  if (!lane) return ClassifyMiss(miss);
  notes_[*lane].misses.push_back(std::move(miss));
}

// The stores are as they are between batches, up to a lookahead after the get finished.
void RecordWorkload::ClassifyMiss(const PendingMiss& miss) {
  const Entry& wanted = entries_[miss.entry];
  const kademlia::Key& key = miss.key;
  const size_t k = scenario_.kademlia.routing.bucket_size;
  const auto near = population_.live().Closest(key, k);
  size_t held = 0, near_held = 0;
  bool asked = false;
  for (const OracleEntry& live : population_.live().entries()) {
    const hosts::Population::Slot& s = population_.slot(live.slot);
    const kademlia::store::SkillDht* dht = s.host ? s.host->dht() : nullptr;
    if (dht == nullptr) continue;
    for (const kademlia::store::StoredRecord* r : dht->store().Get(key)) {
      if (r->expires_at <= population_.Now() || r->value->record.tombstone ||
          kademlia::store::IdentityOf(r->value->record) != wanted.identity ||
          r->value->record.sequence < wanted.sequence) {
        continue;
      }
      ++held;
      asked = asked ||
              std::find(miss.closest.begin(), miss.closest.end(), live.id) != miss.closest.end();
      near_held += std::any_of(near.begin(), near.end(),
                               [&](const OracleEntry& n) { return n.slot == live.slot; });
    }
  }
  const MissKind kind = asked           ? MissKind::kAsked
                        : near_held > 0 ? MissKind::kNear
                        : held > 0      ? MissKind::kFar
                                        : MissKind::kLost;
  RecordCounters& counters = counters_[Side()];
  ++(kind == MissKind::kAsked  ? counters.missed_asked
     : kind == MissKind::kNear ? counters.missed_near
     : kind == MissKind::kFar  ? counters.missed_far
                               : counters.missed_lost);
  if (misses_.size() >= kRecordMissesLoggedMax) return;
  const auto narrow = [](size_t n) {
    return static_cast<uint16_t>(std::min<size_t>(n, UINT16_MAX));
  };
  RecordMiss row;
  row.finished_s = transport::ToMillis(miss.finished - epoch_) / 1000;
  row.asker = miss.asker;
  row.publisher = wanted.slot;
  row.publisher_up = miss.publisher_up;
  row.published_for_s = transport::ToMillis(miss.finished - wanted.available_from) / 1000;
  row.kind = kind;
  row.live_holders = narrow(held);
  row.near_holders = narrow(near_held);
  row.answered = narrow(miss.closest.size());
  row.records = narrow(miss.records);
  row.messages = static_cast<uint32_t>(miss.stats.messages);
  row.replies = static_cast<uint32_t>(miss.stats.replies);
  row.failures = static_cast<uint32_t>(miss.stats.failures);
  misses_.push_back(row);
}

std::optional<double> RecordWorkload::available_rate_publisher_up() const {
  const RecordCounters c = counters();
  if (c.gets_checked_publisher_up == 0) return std::nullopt;
  return static_cast<double>(c.gets_found_publisher_up) /
         static_cast<double>(c.gets_checked_publisher_up);
}

std::optional<double> RecordWorkload::available_rate() const {
  const RecordCounters c = counters();
  if (c.gets_checked == 0) return std::nullopt;
  return static_cast<double>(c.gets_found) / static_cast<double>(c.gets_checked);
}

}  // namespace skillnode::sim::workloads
