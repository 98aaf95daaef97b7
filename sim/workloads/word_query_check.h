// One word query's answer checked against the oracle (the words workload, word_workload.h):
// QueryFetches::Of reads a WordSearch answer as corpus skills, and WordQueryCheck::Of compares
// them with the oracle's answer from when the query started. Each oracle skill the query missed
// (as many as its hits lack, in the oracle's order) was either ranked out (fetched, but below the
// answer's 10th) or not fetched, and then the search may have dropped it as a candidate whose
// fetch failed, or was a candidate read and passed over (word_results.h, word_miss_census.h).
// Pure functions of their arguments.
#ifndef SKILLNODE_SIM_WORKLOADS_WORD_QUERY_CHECK_H_
#define SKILLNODE_SIM_WORKLOADS_WORD_QUERY_CHECK_H_

#include <cstddef>
#include <vector>

#include "discovery/search/words/word_search.h"
#include "sim/workloads/word_oracle.h"

namespace skillnode::sim::workloads {

// What a query's answer led to, as corpus skills (SkillIndexOf; other records are skipped).
struct QueryFetches {
  std::vector<size_t> found;    // the first kWordRecallDepth distinct hits, best first
  std::vector<size_t> fetched;  // every hit
  std::vector<size_t> dropped;  // candidates whose fetch failed (WordAnswer::dropped)
  // candidates read and not fetched (WordAnswer::passed_over, when the search reports them)
  std::vector<size_t> passed_over;

  static QueryFetches Of(const discovery::search::WordAnswer& answer);
};

// An oracle skill the query did not fetch.
struct NotFetchedSkill {
  size_t skill = 0;
  bool dropped = false;      // a candidate whose fetch failed
  bool passed_over = false;  // a candidate read and not fetched

  bool operator==(const NotFetchedSkill&) const = default;
};

struct WordQueryCheck {
  OracleHits hits;
  std::vector<size_t> ranked_out;
  std::vector<NotFetchedSkill> not_fetched;

  // An empty oracle answer has no hits and misses nothing.
  static WordQueryCheck Of(const OracleAnswer& truth, const QueryFetches& fetches);
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORD_QUERY_CHECK_H_
