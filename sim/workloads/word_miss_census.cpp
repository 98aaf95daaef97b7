// WordMissCensus (word_miss_census.h): where a missed skill's pointers and record are.
#include "sim/workloads/word_miss_census.h"

#include <algorithm>
#include <cassert>

#include "discovery/index_terms.h"
#include "discovery/text/text_match.h"
#include "kademlia/store/record/term_pointer.h"
#include "kademlia/store/skill_dht.h"
#include "sim/hosts/host.h"
#include "sim/workloads/oracle.h"

namespace skillnode::sim::workloads {

void Count(WordMissKind kind, WordCounters& counters) {
  switch (kind) {
    case WordMissKind::kUnplaced:
      ++counters.missed_unplaced;
      return;
    case WordMissKind::kPointerLost:
      ++counters.missed_pointer_lost;
      return;
    case WordMissKind::kPointerFar:
      ++counters.missed_pointer_far;
      return;
    case WordMissKind::kRecordLost:
      ++counters.missed_record_lost;
      return;
    case WordMissKind::kFetchFailed:
      ++counters.missed_fetch_failed;
      return;
    case WordMissKind::kReader:
      ++counters.missed_reader;
      return;
  }
}

WordMissCensus::WordMissCensus(const hosts::Population& population, size_t replication,
                               size_t bucket_size)
    : population_(population),
      replication_(replication),
      bucket_size_(bucket_size),
      analyzer_(discovery::text::Analyzer::Create().value()) {
  assert(replication > 0 && bucket_size > 0);
}

WordMiss WordMissCensus::FactsOf(const kademlia::store::SkillRecord& record,
                                 std::string_view text) {
  WordMiss facts;
  facts.skill_id = record.skill_id;
  const std::vector<kademlia::store::IndexTerm> indexed =
      discovery::IndexTermsOf(analyzer_, extractor_, record);
  auto match = discovery::text::TextMatch::Create(text);
  assert(match.has_value());  // the default language is always there
  const discovery::text::QueryTerms& query = match->query();
  for (size_t i = 0; i < query.size(); ++i) {
    std::vector<std::string> matching;
    for (const kademlia::store::IndexTerm& term : indexed) {
      if (term.term == query.terms()[i] ||
          (query.IsPrefix(i) && term.term.starts_with(query.terms()[i]))) {
        matching.push_back(term.term);
      }
    }
    if (!matching.empty()) facts.terms.push_back(std::move(matching));
  }
  return facts;
}

std::optional<transport::TimePoint> WordMissCensus::EarliestCopy(std::string_view term,
                                                                 std::string_view skill_id,
                                                                 size_t nodes) const {
  const transport::TimePoint now = population_.Now();
  std::optional<transport::TimePoint> earliest;
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
        if (held->Signed().pointer.skill_id == skill_id) {
          earliest = std::min(earliest.value_or(held->stored_at), held->stored_at);
        }
      }
    }
    if (!any) break;
  }
  return earliest;
}

bool WordMissCensus::PointerHeld(std::string_view term, std::string_view skill_id,
                                 size_t nodes) const {
  return EarliestCopy(term, skill_id, nodes).has_value();
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

bool WordMissCensus::PlacedSince(const WordMiss& miss, transport::TimePoint since) const {
  for (const std::vector<std::string>& matching : miss.terms) {
    std::optional<transport::TimePoint> earliest;
    for (const std::string& term : matching) {
      if (const auto at = EarliestCopy(term, miss.skill_id, replication_)) {
        earliest = std::min(earliest.value_or(*at), *at);
      }
    }
    if (earliest && *earliest >= since) return true;
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
  if (!RecordHeld(miss.skill_id)) return WordMissKind::kRecordLost;
  return miss.dropped ? WordMissKind::kFetchFailed : WordMissKind::kReader;
}

}  // namespace skillnode::sim::workloads
