// SkillDht's side of record validity windows (kademlia/store/skill_record.h, NotAfterMs): the
// check every record from the network passes, how long a held copy lives, and the signing again
// of this node's own records before their window ends. The rest of SkillDht is in
// skill_dht.cpp, skill_dht_get.cpp and skill_dht_listen.cpp.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>

#include "kademlia/store/skill_dht.h"

namespace skillnode::kademlia {
namespace {

uint64_t MillisOf(Duration d) {
  return static_cast<uint64_t>(
      std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::milliseconds>(d).count()));
}

uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

uint64_t SimulatedWallClockMs(TimePoint now) {
  return kSimulatedEpochMs + MillisOf(now - kTimeZero);
}

Result<void> SkillDht::CheckWindow(TimePoint now, const SkillRecord& record) const {
  return CheckValidityWindow(record, wall_clock_(now), MillisOf(config_.clock_skew));
}

TimePoint SkillDht::LocalTimeOf(TimePoint now, uint64_t wall_ms) const {
  const uint64_t wall_now = wall_clock_(now);
  if (wall_ms <= wall_now) return now;
  // Beyond any record's window (a day and the skew): a bound that cannot overflow.
  const uint64_t ahead = std::min<uint64_t>(wall_ms - wall_now, uint64_t{1} << 40);
  return now + std::chrono::milliseconds(ahead);
}

Duration SkillDht::HeldFor(TimePoint now, const SkillRecord& record, Duration offered) const {
  const TimePoint window_end =
      LocalTimeOf(now, SaturatingAdd(NotAfterMs(record), MillisOf(config_.clock_skew)));
  const Duration window_left = window_end - now;
  return record.tombstone ? std::max(offered, window_left) : std::min(offered, window_left);
}

SignedRecord SkillDht::Refreshed(TimePoint now, SignedRecord record) {
  const SkillRecord& fields = record.record;
  if (fields.tombstone || fields.publisher != node_.identity().public_key()) return record;
  const uint64_t wall_now = wall_clock_(now);
  const uint64_t not_after = NotAfterMs(fields);
  const uint64_t wanted = MillisOf(config_.republish_interval) + uint64_t{fields.ttl_seconds} * 250;
  if (not_after > wall_now && not_after - wall_now >= wanted) return record;
  SkillRecord again = fields;
  again.timestamp_ms = wall_now;
  again.sequence = std::max(fields.sequence + 1, wall_now);
  auto resigned = SignRecord(std::move(again), node_.identity(), node_.signatures());
  // The same fields validated when first signed; only the clock moved.
  if (!resigned) return record;
  ++stats_.records_resigned;
  if (resigned_) resigned_(*resigned);
  return std::move(*resigned);
}

}  // namespace skillnode::kademlia
