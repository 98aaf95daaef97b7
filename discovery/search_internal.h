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

// A record's identity (publisher, agentId, skillId) as views into the record: the merge's key,
// valid while the record it views is held (the merge keeps the entry beside its key).
struct IdentityView {
  const kademlia::PublicKey* publisher;
  std::string_view agent_id;
  std::string_view skill_id;
  explicit IdentityView(const SkillRecord& record)
      : publisher(&record.publisher), agent_id(record.agent_id), skill_id(record.skill_id) {}
  bool operator<(const IdentityView& other) const {
    if (int c = skill_id.compare(other.skill_id); c != 0) return c < 0;
    if (int c = agent_id.compare(other.agent_id); c != 0) return c < 0;
    return *publisher < *other.publisher;
  }
};

// A merged record and whether it already passed the query's filters (the local, LAN and cache
// stages hand over only matching records).
struct Merged {
  Found found;
  bool matched = false;
};

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
  // Set when the answer may be reused (the cache stage answered): its key and how long.
  std::string answer_key;
  TimePoint answer_fresh_until = kTimeZero;
  // Newest version per identity; tombstones kept so that they beat older live copies.
  std::map<IdentityView, Merged> merged;
  std::vector<StageReport> stages;

  // Keeps `entry` unless a newer version of its record is held; an equal version found
  // locally says so. `matched`: the entry is known to pass the query's filters. Returns what
  // is now held for the record's identity.
  const Found& Add(const SkillEntryPtr& entry, Source source, bool matched = false) {
    const SkillRecord& record = entry->record();
    auto it = merged.lower_bound(IdentityView(record));
    if (it == merged.end() || IdentityView(record) < it->first) {
      it = merged.emplace_hint(it, IdentityView(record), Merged{Found{entry, source}, matched});
    } else if (record.sequence > it->second.found.record().sequence) {
      // The key views the record it was made from: replaced with the entry.
      it = merged.erase(it);
      it = merged.emplace_hint(it, IdentityView(record), Merged{Found{entry, source}, matched});
    } else if (record.sequence == it->second.found.record().sequence && source == Source::kLocal) {
      it->second.found.source = Source::kLocal;  // our own registration: say so
    }
    return it->second.found;
  }
  // The same for a record that is not in an entry yet: one is made only when it is news.
  const Found& Add(const SkillRecord& record, Source source) {
    auto it = merged.find(IdentityView(record));
    if (it != merged.end() && record.sequence <= it->second.found.record().sequence) {
      if (record.sequence == it->second.found.record().sequence && source == Source::kLocal) {
        it->second.found.source = Source::kLocal;
      }
      return it->second.found;
    }
    return Add(SkillEntry::Make(record), source);
  }
  // Whether any stage has found a skill to answer with: the LAN round is then not waited for.
  bool HasAnswer() const {
    return std::any_of(merged.begin(), merged.end(), [this](const auto& entry) {
      const SkillRecord& record = entry.second.found.record();
      return !record.tombstone && (entry.second.matched || Matches(query, record));
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
