// WordMissCensus (word_miss_census.h): where a missed skill's pointers and record are.
#include "sim/workloads/word_miss_census.h"

#include <algorithm>
#include <cassert>

#include "kademlia/store/record/term_pointer.h"
#include "kademlia/store/skill_dht.h"
#include "sim/hosts/host.h"
#include "sim/workloads/oracle.h"

namespace skillnode::sim::workloads {

std::string_view WordMissKindName(WordMissKind kind) {
  switch (kind) {
    case WordMissKind::kUnplaced:
      return "unplaced";
    case WordMissKind::kPointerLost:
      return "pointer_lost";
    case WordMissKind::kPointerFar:
      return "pointer_far";
    case WordMissKind::kRecordLost:
      return "record_lost";
    case WordMissKind::kReader:
      return "reader";
  }
  return "reader";
}

WordMissCensus::WordMissCensus(const hosts::Population& population, size_t replication,
                               size_t bucket_size)
    : population_(population), replication_(replication), bucket_size_(bucket_size) {
  assert(replication > 0 && bucket_size > 0);
}

bool WordMissCensus::PointerHeld(std::string_view term, std::string_view skill_id,
                                 size_t nodes) const {
  const transport::TimePoint now = population_.Now();
  for (uint32_t shard = 0; shard < kademlia::store::kTermShardsMax; ++shard) {
    const kademlia::Key key = kademlia::store::TermKey(term, shard);
    bool any = false;  // the shard's closest hold something of the term
    for (const OracleEntry& near : population_.live().Closest(key, nodes)) {
      const hosts::Population::Slot& slot = population_.slot(near.slot);
      const kademlia::store::SkillDht* dht = slot.host ? slot.host->dht() : nullptr;
      if (dht == nullptr) continue;
      for (const kademlia::store::terms::StoredPointer* held :
           dht->terms().Page(key, 0, kademlia::store::kTermPointersPerKeyMax)) {
        any = true;
        if (held->expires_at <= now || held->weight_centi == 0) continue;  // gone, or buried
        if (held->Signed().pointer.skill_id == skill_id) return true;
      }
    }
    if (!any) return false;
  }
  return false;
}

bool WordMissCensus::RecordHeld(std::string_view skill_id) const {
  const transport::TimePoint now = population_.Now();
  const kademlia::Key key = kademlia::store::SkillKey(std::string(skill_id));
  for (const OracleEntry& near : population_.live().Closest(key, bucket_size_)) {
    const hosts::Population::Slot& slot = population_.slot(near.slot);
    const kademlia::store::SkillDht* dht = slot.host ? slot.host->dht() : nullptr;
    if (dht == nullptr) continue;
    for (const kademlia::store::StoredRecord* held : dht->store().Get(key)) {
      if (held->expires_at > now && !held->value->record.tombstone &&
          held->value->record.skill_id == skill_id) {
        return true;
      }
    }
  }
  return false;
}

WordMissKind WordMissCensus::Classify(const WordMiss& miss) const {
  for (const std::vector<std::string>& matching : miss.terms) {
    const auto held_on = [&](size_t nodes) {
      return std::any_of(matching.begin(), matching.end(), [&](const std::string& term) {
        return PointerHeld(term, miss.skill_id, nodes);
      });
    };
    if (held_on(replication_)) continue;
    if (held_on(bucket_size_)) return WordMissKind::kPointerFar;
    const bool unplaced =
        miss.publisher != nullptr &&
        std::all_of(matching.begin(), matching.end(), [&](const std::string& term) {
          return !miss.publisher->term_publisher().ShardOf(miss.identity, term).has_value();
        });
    return unplaced ? WordMissKind::kUnplaced : WordMissKind::kPointerLost;
  }
  return RecordHeld(miss.skill_id) ? WordMissKind::kReader : WordMissKind::kRecordLost;
}

}  // namespace skillnode::sim::workloads
