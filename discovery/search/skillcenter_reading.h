// SkillCenterReading: what the SkillCenter stage's answer means for one search: the stage's end
// state, its report (outcome, live records, code and detail) and the entries to cache (the live
// matches, only when the stage caches its answers and there are any). Searcher merges the
// answer's records itself; this says what they came to.
//
// Pure, stateless; used by Searcher (discovery/search/searcher.h).
#ifndef SKILLNODE_DISCOVERY_SEARCH_SKILLCENTER_READING_H_
#define SKILLNODE_DISCOVERY_SEARCH_SKILLCENTER_READING_H_

#include <cstddef>
#include <string>
#include <vector>

#include "discovery/search/search_progress.h"
#include "discovery/search/searcher.h"

namespace skillnode::discovery::search {

struct SkillCenterReading {
  SearchProgress::Center state = SearchProgress::Center::kAnswered;
  std::string outcome;  // the stage report's: found, none, timeout, failed, skipped
  size_t live = 0;      // live records matching the query (0 unless answered)
  std::string code;     // DISC_001 for a timeout, DISC_005 for a failure or a skip; else empty
  std::string message;  // why, for a timeout, a failure or a skip
  std::vector<SkillEntryPtr> to_cache;  // empty: nothing to cache

  // Reads `answer` to `query`. `cache_answers`: the stage caches its answers (a TTL is set).
  static SkillCenterReading Of(const SkillQuery& query, const SkillCenterAnswer& answer,
                               bool cache_answers);
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_SKILLCENTER_READING_H_
