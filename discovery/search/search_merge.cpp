// SearchMerge: newest version per identity, and the ranked answer made of it.
#include "discovery/search/search_merge.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;

// A record no publisher signed: what a SkillCenter catalog answered (catalog_json.h).
bool Unsigned(const SkillRecord& record) { return record.publisher == kademlia::PublicKey{}; }

}  // namespace

bool SearchMerge::IdentityView::operator<(const IdentityView& other) const {
  if (int c = skill_id.compare(other.skill_id); c != 0) return c < 0;
  if (int c = agent_id.compare(other.agent_id); c != 0) return c < 0;
  return *publisher < *other.publisher;
}

const Found& SearchMerge::Add(const SkillEntryPtr& entry, Source source, bool matched) {
  const SkillRecord& record = entry->record();
  auto it = merged_.lower_bound(IdentityView(record));
  if (it == merged_.end() || IdentityView(record) < it->first) {
    it = merged_.emplace_hint(it, IdentityView(record), Merged{Found{entry, source}, matched});
  } else if (record.sequence > it->second.found.record().sequence) {
    // The key views the record it was made from: replaced with the entry.
    it = merged_.erase(it);
    it = merged_.emplace_hint(it, IdentityView(record), Merged{Found{entry, source}, matched});
  } else if (record.sequence == it->second.found.record().sequence && source == Source::kLocal) {
    it->second.found.source = Source::kLocal;  // our own registration: say so
  }
  return it->second.found;
}

const Found& SearchMerge::Add(const SkillRecord& record, Source source, bool matched) {
  auto it = merged_.find(IdentityView(record));
  if (it != merged_.end() && record.sequence <= it->second.found.record().sequence) {
    if (record.sequence == it->second.found.record().sequence && source == Source::kLocal) {
      it->second.found.source = Source::kLocal;
    }
    return it->second.found;
  }
  return Add(SkillEntry::Make(record), source, matched);
}

bool SearchMerge::HasAnswer(const SkillQuery& query) const {
  return std::any_of(merged_.begin(), merged_.end(), [&query](const auto& entry) {
    const SkillRecord& record = entry.second.found.record();
    return !record.tombstone && (entry.second.matched || Matches(query, record));
  });
}

SearchMerge::Ranked SearchMerge::Rank(const SkillQuery& query, size_t results_max,
                                      const Order& order) const {
  // What a signed record (local, DHT, cache) says of a skill beats what the LAN heard of it,
  // and what a SkillCenter said of it unless that is newer. The newest signed time per skill,
  // needed only when the LAN or a SkillCenter found something:
  std::map<std::pair<std::string_view, std::string_view>, uint64_t> signed_skills;
  const bool mixed = std::any_of(merged_.begin(), merged_.end(), [](const auto& m) {
    return m.second.found.source == Source::kLan || Unsigned(m.second.found.record());
  });
  if (mixed) {
    for (const auto& [identity, merged] : merged_) {
      const Found& found = merged.found;
      if (found.source == Source::kLan || Unsigned(found.record())) continue;
      auto [it, inserted] = signed_skills.try_emplace({identity.agent_id, identity.skill_id},
                                                      found.record().timestamp_ms);
      if (!inserted) it->second = std::max(it->second, found.record().timestamp_ms);
    }
  }
  Ranked ranked;
  ranked.skills.reserve(merged_.size());
  for (const auto& [identity, merged] : merged_) {
    const Found& found = merged.found;
    const SkillRecord& record = found.record();
    if (record.tombstone || !(merged.matched || Matches(query, record))) continue;
    if (mixed) {
      const auto signed_it = signed_skills.find({identity.agent_id, identity.skill_id});
      if (signed_it != signed_skills.end()) {
        if (found.source == Source::kLan) continue;
        if (Unsigned(record) && signed_it->second >= record.timestamp_ms) continue;
      }
    }
    ranked.skills.push_back(found);
    if (IsPrivate(record)) ++ranked.private_skills;  // before the cut
  }
  if (order) {
    order(ranked.skills);
  } else {
    std::stable_sort(
        ranked.skills.begin(), ranked.skills.end(),
        [](const Found& a, const Found& b) { return RanksBefore(*a.entry, *b.entry); });
  }
  if (ranked.skills.size() > results_max) ranked.skills.resize(results_max);
  return ranked;
}

}  // namespace skillnode::discovery::search
