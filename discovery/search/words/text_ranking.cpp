// TextRanking: BM25F over the skills ranked together, times a health weight.
#include "discovery/search/words/text_ranking.h"

#include <algorithm>
#include <string>
#include <utility>

#include "discovery/text/query_terms.h"

namespace skillnode::discovery::search {

using kademlia::store::SkillStatus;

double HealthWeights::Of(SkillStatus status) const {
  switch (status) {
    case SkillStatus::kHealthy:
      return healthy;
    case SkillStatus::kDegraded:
      return degraded;
    case SkillStatus::kMaintenance:
      return maintenance;
    case SkillStatus::kUnhealthy:
      return unhealthy;
  }
  return unhealthy;
}

TextRanking::TextRanking(TextRankingConfig config)
    : config_(std::move(config)), bm25_(config_.bm25) {}

std::vector<ScoredEntry> TextRanking::Rank(text::TextMatch& match,
                                           std::vector<SkillEntryPtr> entries) const {
  std::vector<text::FieldedTerms> fields;
  fields.reserve(entries.size());
  for (const SkillEntryPtr& entry : entries) fields.push_back(match.Analyze(entry->record()));
  const text::CorpusStats stats = text::CorpusStats::Of(fields);
  const text::QueryTerms& query = match.query();
  std::vector<ScoredEntry> scored;
  scored.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::vector<std::string> distinct = text::DistinctTerms(fields[i]);
    std::vector<std::string> matched;
    for (size_t t = 0; t < query.size(); ++t) {
      if (auto term = query.MatchIn(t, distinct)) matched.emplace_back(*term);
    }
    TextScore score;
    score.terms_matched = matched.size();
    score.bm25 = bm25_.Score(matched, fields[i], stats);
    score.score = score.bm25 * config_.health.Of(entries[i]->record().status);
    scored.push_back(ScoredEntry{std::move(entries[i]), score});
  }
  std::stable_sort(scored.begin(), scored.end(), [](const ScoredEntry& a, const ScoredEntry& b) {
    if (a.score.terms_matched != b.score.terms_matched) {
      return a.score.terms_matched > b.score.terms_matched;
    }
    if (a.score.score != b.score.score) return a.score.score > b.score.score;
    return RanksBefore(*a.entry, *b.entry);
  });
  return scored;
}

}  // namespace skillnode::discovery::search
