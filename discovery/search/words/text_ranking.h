// TextRanking: the order of a word search's answer (docs/search.md, "The query"): skills that
// hold every query term before those holding fewer, then by
//     score = BM25F(query, skill) x health weight
// then, on equal scores, as Rank() orders (health, version, ids). BM25F is text::Bm25 over the
// skill's fields (field weights configurable) with the corpus statistics of the skills ranked
// together (CorpusStats::Of); each query term is scored as the skill term it matched (itself, a
// correction, or for the last term the completion: QueryTerms::MatchIn). The health weight is
// a multiplier per status (HealthWeights): a DEGRADED skill needs a better text match than a
// HEALTHY one to go before it.
//
// Used by WordSearch for the records it fetched and by the Searcher for its merged answer.
// Holds its configuration only; the TextMatch (and its Analyzer) is the caller's.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_TEXT_RANKING_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_TEXT_RANKING_H_

#include <cstddef>
#include <vector>

#include "discovery/skill_entry.h"
#include "discovery/text/bm25.h"
#include "discovery/text/text_match.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::search {

struct HealthWeights {
  double healthy = 1.0;
  double degraded = 0.7;
  double maintenance = 0.4;
  double unhealthy = 0.1;

  double Of(kademlia::store::SkillStatus status) const;
};

struct TextRankingConfig {
  text::Bm25Config bm25;  // k1, b and the field weights (name 3, capabilities 3, tags 2, ...)
  HealthWeights health;
};

struct TextScore {
  size_t terms_matched = 0;
  double bm25 = 0;
  double score = 0;  // bm25 x health weight
};

struct ScoredEntry {
  SkillEntryPtr entry;
  TextScore score;
};

class TextRanking {
 public:
  explicit TextRanking(TextRankingConfig config = {});

  // `entries` scored for `match`'s query and sorted best first.
  std::vector<ScoredEntry> Rank(text::TextMatch& match, std::vector<SkillEntryPtr> entries) const;

  const TextRankingConfig& config() const { return config_; }

 private:
  TextRankingConfig config_;
  text::Bm25 bm25_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_TEXT_RANKING_H_
