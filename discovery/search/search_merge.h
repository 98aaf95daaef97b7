// SearchMerge: what the stages of one search found, merged to the newest version per
// (publisher, agentId, skillId), and the answer made of it: only what matches the query,
// ranked (HEALTHY first, then highest version), at most results_max. A LAN result is dropped
// when a signed record of the same (agentId, skillId) was found, and a SkillCenter result
// (unsigned) when a signed one of the same (agentId, skillId) is as new or newer.
//
// Owned by the search it merges for (Searcher's Pending); pure, not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_MERGE_H_
#define SKILLNODE_DISCOVERY_SEARCH_MERGE_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string_view>
#include <vector>

#include "discovery/query.h"
#include "discovery/search/search_types.h"

namespace skillnode::discovery::search {

class SearchMerge {
 public:
  struct Ranked {
    std::vector<Found> skills;  // ranked, at most results_max
    size_t private_skills = 0;  // private ones among the matches, counted before the cut
  };

  // Keeps `entry` unless a newer version of its record is held; an equal version found
  // locally says so. `matched`: the entry is known to pass the query's filters (the local,
  // LAN-table and cache stages hand over only matching records). Returns what is now held for
  // the record's identity.
  const Found& Add(const SkillEntryPtr& entry, Source source, bool matched = false);
  // The same for a record that is not in an entry yet: one is made only when it is news.
  const Found& Add(const kademlia::store::SkillRecord& record, Source source, bool matched = false);

  // Whether a live skill matching `query` is held: the answer then waits for no other stage.
  bool HasAnswer(const SkillQuery& query) const;
  // Identities held, tombstones included.
  size_t size() const { return merged_.size(); }

  // How an answer is ordered when not as Rank() (query.h) orders: a word search's order.
  using Order = std::function<void(std::vector<Found>&)>;
  // The answer: the live records matching `query`, signed ones beating LAN and SkillCenter
  // copies of the same skill as above, ranked (by `order` when set), cut to `results_max`.
  Ranked Rank(const SkillQuery& query, size_t results_max, const Order& order = nullptr) const;

 private:
  // A record's identity (publisher, agentId, skillId) as views into the record: the merge's
  // key, valid while the record it views is held (the entry is kept beside its key).
  struct IdentityView {
    const kademlia::PublicKey* publisher;
    std::string_view agent_id;
    std::string_view skill_id;
    explicit IdentityView(const kademlia::store::SkillRecord& record)
        : publisher(&record.publisher), agent_id(record.agent_id), skill_id(record.skill_id) {}
    bool operator<(const IdentityView& other) const;
  };
  // A merged record and whether it already passed the query's filters.
  struct Merged {
    Found found;
    bool matched = false;
  };

  // Newest version per identity; tombstones kept so that they beat older live copies.
  std::map<IdentityView, Merged> merged_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_MERGE_H_
