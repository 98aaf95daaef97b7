#include "sim/workloads/record_workload.h"

#include <algorithm>
#include <cmath>
#include <string>

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

RecordWorkload::RecordWorkload(const scenario::Scenario& scenario, hosts::Population& population,
                               engine::EventQueue& queue, const transport::TimePoint& now,
                               transport::TimePoint epoch, uint64_t seed, engine::TraceHash& trace)
    : scenario_(scenario),
      population_(population),
      queue_(queue),
      now_(now),
      epoch_(epoch),
      trace_(trace),
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
    ++counters_.published;
    dht->Publish(population_.Now(), *signed_record,
                 [this, index](const kademlia::store::PublishResult& done) {
                   if (done.stored == 0) return;  // nowhere stored: the republish will try again
                   Entry& entry = entries_[index];
                   if (entry.available_from == transport::kTimeNever) {
                     entry.available_from = population_.Now();
                     ++counters_.publishes_done;
                   }
                 });
  }
  population_.Reschedule(slot);
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
  const auto picked = PickExpected();
  if (!picked) {
    counters_.gets_no_target += measured;
    return;
  }
  kademlia::store::SkillDht* dht = s.host->dht();
  const size_t entry = *picked;
  if (measured) {
    ++counters_.gets;
    ++pending_;
  }
  const bool started = dht->Get(
      population_.Now(), GetKey(entries_[entry]), kademlia::store::GetOptions{},
      [this, slot, incarnation, entry, measured](const kademlia::store::GetResult& result) {
        trace_.Add(static_cast<uint64_t>(result.finished.time_since_epoch().count()));
        trace_.Add((uint64_t{slot} << 32) | result.records.size());
        trace_.Add(result.key.FirstWord() ^ result.rejected);
        counters_.records_rejected += result.rejected;
        if (!measured) return;
        --pending_;
        const hosts::Population::Slot& asker = population_.slot(slot);
        if (asker.leaving || !asker.host || asker.incarnation != incarnation) {
          ++counters_.gets_interrupted;
          return;
        }
        Check(slot, entry, result);
      });
  if (!started && measured) {
    ++counters_.gets_refused;
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
  ++counters_.gets_checked;
  bool found = false;
  for (const kademlia::store::SignedRecordPtr& held : result.records) {
    const kademlia::store::SignedRecord& r = *held;
    const auto known = by_identity_.find(kademlia::store::IdentityOf(r.record));
    if (known == by_identity_.end() || !MadeBy(entries_[known->second], r.record)) {
      ++counters_.records_unknown;
      continue;
    }
    if (known->second == index || (kademlia::store::IdentityOf(r.record) == wanted.identity &&
                                   r.record.sequence >= wanted.sequence)) {
      found = found || !r.record.tombstone;
    }
  }
  counters_.gets_found += found;
  if (wanted.expected_until == transport::kTimeNever) {
    ++counters_.gets_checked_publisher_up;
    counters_.gets_found_publisher_up += found;
  }
  if (!found) ClassifyMiss(asker, wanted, result);
}

void RecordWorkload::ClassifyMiss(uint32_t asker, const Entry& wanted,
                                  const kademlia::store::GetResult& result) {
  const kademlia::Key& key = result.key;
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
      asked = asked || std::any_of(result.closest.begin(), result.closest.end(),
                                   [&](const kademlia::Contact& c) { return c.id == live.id; });
      near_held += std::any_of(near.begin(), near.end(),
                               [&](const OracleEntry& n) { return n.slot == live.slot; });
    }
  }
  const MissKind kind = asked           ? MissKind::kAsked
                        : near_held > 0 ? MissKind::kNear
                        : held > 0      ? MissKind::kFar
                                        : MissKind::kLost;
  ++(kind == MissKind::kAsked  ? counters_.missed_asked
     : kind == MissKind::kNear ? counters_.missed_near
     : kind == MissKind::kFar  ? counters_.missed_far
                               : counters_.missed_lost);
  if (misses_.size() >= kRecordMissesLoggedMax) return;
  const auto narrow = [](size_t n) {
    return static_cast<uint16_t>(std::min<size_t>(n, UINT16_MAX));
  };
  RecordMiss miss;
  miss.finished_s = transport::ToMillis(population_.Now() - epoch_) / 1000;
  miss.asker = asker;
  miss.publisher = wanted.slot;
  miss.publisher_up = wanted.expected_until == transport::kTimeNever;
  miss.published_for_s = transport::ToMillis(population_.Now() - wanted.available_from) / 1000;
  miss.kind = kind;
  miss.live_holders = narrow(held);
  miss.near_holders = narrow(near_held);
  miss.answered = narrow(result.closest.size());
  miss.records = narrow(result.records.size());
  miss.messages = static_cast<uint32_t>(result.stats.messages);
  miss.replies = static_cast<uint32_t>(result.stats.replies);
  miss.failures = static_cast<uint32_t>(result.stats.failures);
  misses_.push_back(miss);
}

std::optional<double> RecordWorkload::available_rate_publisher_up() const {
  if (counters_.gets_checked_publisher_up == 0) return std::nullopt;
  return static_cast<double>(counters_.gets_found_publisher_up) /
         static_cast<double>(counters_.gets_checked_publisher_up);
}

std::optional<double> RecordWorkload::available_rate() const {
  if (counters_.gets_checked == 0) return std::nullopt;
  return static_cast<double>(counters_.gets_found) / static_cast<double>(counters_.gets_checked);
}

}  // namespace skillnode::sim::workloads
