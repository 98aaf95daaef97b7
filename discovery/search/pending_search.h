// PendingSearch: one search's state while the Searcher's chain runs (searcher.h): the query and
// its options, the callback, the keys it is cached and looked up under, its stages' states
// (SearchProgress), what they found (SearchMerge) and reported (StageReport), and its free text
// analysed once (TextQuery). A plain struct with the two rules the chain reads off it.
//
// Owned by shared_ptr: by the Searcher and its DhtStage while they wait for a stage, and by the
// stages' callbacks. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_PENDING_SEARCH_H_
#define SKILLNODE_DISCOVERY_SEARCH_PENDING_SEARCH_H_

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "discovery/query.h"
#include "discovery/search/search_merge.h"
#include "discovery/search/search_progress.h"
#include "discovery/search/search_types.h"
#include "discovery/search/words/text_query.h"
#include "kademlia/key.h"
#include "transport/clock.h"

namespace skillnode::discovery::search {

struct PendingSearch {
  SkillQuery query;
  SearchOptions options;
  SearchCallback done;
  std::string cache_key;
  kademlia::Key dht_key;  // the key the DhtStage looks up, when it runs a lookup
  transport::TimePoint started = transport::kTimeZero;
  // When the DhtStage ends its lookup or word search as timed out.
  transport::TimePoint dht_deadline = transport::kTimeNever;
  SearchProgress progress;
  // Set when the answer may be reused (the cache stage answered): its key and how long.
  std::string answer_key;
  transport::TimePoint answer_fresh_until = transport::kTimeZero;
  SearchMerge merge;
  std::vector<StageReport> stages;
  // The query's free text analysed once; null when it has no terms.
  std::unique_ptr<TextQuery> text;

  // A stage still running is not waited for once a skill to answer with was found.
  bool MayFinish() const { return !progress.Waiting() || merge.HasAnswer(query); }
  // Notes a stage's outcome, timed from the search's start.
  void Report(std::string stage, std::string outcome, size_t records, transport::TimePoint now,
              std::string code = {}, std::string detail = {}) {
    stages.push_back(StageReport{std::move(stage), std::move(outcome), records,
                                 transport::ToMillis(now - started), std::move(code),
                                 std::move(detail)});
  }
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_PENDING_SEARCH_H_
