// Searcher's state of one search, shared by its source files (search.cpp, search_remote.cpp).
#ifndef SKILLNODE_DISCOVERY_SEARCH_INTERNAL_H_
#define SKILLNODE_DISCOVERY_SEARCH_INTERNAL_H_

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "discovery/search.h"

namespace skillnode::discovery {

using kademlia::Key;
using kademlia::RecordIdentity;
using kademlia::SkillRecord;

// A record no publisher signed: what a SkillCenter catalog answered (catalog_json.h).
inline bool Unsigned(const SkillRecord& record) {
  return record.publisher == kademlia::PublicKey{};
}

struct Searcher::Pending {
  SkillQuery query;
  SearchOptions options;
  SearchCallback done;
  std::string cache_key;
  Key dht_key;
  TimePoint started = kTimeZero;
  TimePoint dht_deadline = kTimeNever;
  bool dht_done = false;
  bool dht_timed_out = false;
  bool dht_unreachable = false;
  bool dht_busy = false;  // the DHT stage could not start: too many lookups running
  bool answered = false;
  bool lan_waiting = false;  // a SKILL_DISCOVER round is running
  bool center_started = false;
  bool center_waiting = false;  // the SkillCenter stage is running
  bool center_timed_out = false;
  bool center_failed = false;  // failed or skipped (circuit open)
  std::string center_message;
  bool stale_done = false;
  // Newest version per identity; tombstones kept so that they beat older live copies.
  std::map<RecordIdentity, Found> merged;
  std::vector<StageReport> stages;

  void Add(const SkillRecord& record, Source source) {
    auto [it, inserted] = merged.try_emplace(kademlia::IdentityOf(record), Found{record, source});
    if (inserted) return;
    if (record.sequence > it->second.record.sequence) {
      it->second = Found{record, source};
    } else if (record.sequence == it->second.record.sequence && source == Source::kLocal) {
      it->second.source = Source::kLocal;  // our own registration: say so
    }
  }
  // Whether any stage has found a skill to answer with: the LAN round is then not waited for.
  bool HasAnswer() const {
    return std::any_of(merged.begin(), merged.end(), [this](const auto& entry) {
      return !entry.second.record.tombstone && Matches(query, entry.second.record);
    });
  }
  bool MayFinish() const { return (!lan_waiting && !center_waiting) || HasAnswer(); }
  void Report(std::string stage, std::string outcome, size_t records, TimePoint now,
              std::string code = {}, std::string detail = {}) {
    stages.push_back(StageReport{std::move(stage), std::move(outcome), records,
                                 ToMillis(now - started), std::move(code), std::move(detail)});
  }
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_SEARCH_INTERNAL_H_
