// Helpers on held and wire records shared inside the skill store (kademlia/store/skill_dht.h):
// by skill_dht.cpp (the holder side), skill_getter.cpp (the get path), skill_publisher.cpp
// (publishing) and replica_handoff.cpp (replication). Private to the store's own files and their
// tests: nothing else may include it, and nothing here is part of SkillDht's interface.
#ifndef SKILLNODE_KADEMLIA_STORE_SKILL_DHT_INTERNAL_H_
#define SKILLNODE_KADEMLIA_STORE_SKILL_DHT_INTERNAL_H_

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "kademlia/key.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"

namespace skillnode::kademlia::store::skill_dht_internal {

// Seconds a held record has left, within [1, its TTL].
inline uint32_t SecondsLeft(const StoredRecord& held, transport::TimePoint now) {
  const auto left = std::chrono::duration_cast<std::chrono::seconds>(held.expires_at - now);
  return static_cast<uint32_t>(
      std::clamp<int64_t>(left.count(), 1, std::max<uint32_t>(1, held.value->record.ttl_seconds)));
}

// One of RecordKeys(record), hashed one at a time until a match: gets and stores ask about
// capability keys most, so those come first.
inline bool BelongsUnder(const SkillRecord& record, const Key& key) {
  for (const auto& c : record.capabilities) {
    if (CapabilityKey(c) == key) return true;
  }
  if (SkillKey(record.skill_id) == key) return true;
  for (const auto& s : record.scenes) {
    if (SceneKey(s) == key) return true;
  }
  for (const auto& c : record.capabilities) {
    if (SkillCapabilityKey(record.skill_id, c) == key) return true;
  }
  if (record.descriptor && !record.descriptor->capability_type.empty() &&
      CapabilityTypeKey(record.descriptor->capability_type) == key) {
    return true;
  }
  if (AgentKey(record.agent_id) == key) return true;
  for (RecordFormat format : FormatsOf(record)) {
    if (FormatKey(format) == key) return true;
  }
  return false;
}

}  // namespace skillnode::kademlia::store::skill_dht_internal

#endif  // SKILLNODE_KADEMLIA_STORE_SKILL_DHT_INTERNAL_H_
