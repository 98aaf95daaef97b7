// WordOracle (word_oracle.h): the inverted index and the exhaustive, WordSearch-ranked answer.
#include "sim/workloads/word_oracle.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <utility>

#include "discovery/text/analyzer.h"
#include "discovery/text/query_terms.h"
#include "discovery/text/record_text.h"
#include "discovery/text/skill_fields.h"
#include "discovery/text/text_match.h"

namespace skillnode::sim::workloads {
namespace {

bool SameScore(double a, double b) {
  return std::abs(a - b) <= kOracleScoreTieRelative * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace

OracleHits HitsOf(const OracleAnswer& truth, const std::vector<size_t>& found) {
  assert(truth.top.size() == truth.scores.size());
  OracleHits hits;
  if (truth.top.empty()) return hits;
  const double last = truth.scores.back();
  size_t bucket_places = 0;  // the top's places at the last score
  std::vector<size_t> bucket = truth.tied;
  for (size_t i = 0; i < truth.top.size(); ++i) {
    const bool found_it = std::find(found.begin(), found.end(), truth.top[i]) != found.end();
    hits.strict += found_it;
    if (SameScore(truth.scores[i], last)) {
      ++bucket_places;
      bucket.push_back(truth.top[i]);
    } else {
      hits.hits += found_it;
    }
  }
  size_t found_in_bucket = 0;
  for (size_t skill : found) {
    found_in_bucket += std::find(bucket.begin(), bucket.end(), skill) != bucket.end();
  }
  hits.hits += std::min(found_in_bucket, bucket_places);
  assert(hits.hits >= hits.strict && hits.hits <= truth.top.size());
  return hits;
}

WordOracle::WordOracle(std::vector<kademlia::store::SkillRecord> records,
                       discovery::search::TextRankingConfig ranking)
    : ranking_(std::move(ranking)) {
  auto analyzer = discovery::text::Analyzer::Create();
  assert(analyzer.has_value());  // the default language is always there
  entries_.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const discovery::text::FieldedTerms fields =
        discovery::text::AnalyzeSkill(*analyzer, discovery::text::SkillTextOf(records[i]));
    for (std::string& term : discovery::text::DistinctTerms(fields)) {
      postings_[std::move(term)].push_back(i);  // i grows: each list stays sorted
    }
    entries_.push_back(discovery::SkillEntry::Make(std::move(records[i])));
  }
}

const std::vector<size_t>& WordOracle::Postings(std::string_view term) const {
  static const std::vector<size_t> kNone;
  const auto it = postings_.find(term);
  return it == postings_.end() ? kNone : it->second;
}

std::vector<size_t> WordOracle::Holding(const std::string& term, bool prefix) const {
  if (!prefix) return Postings(term);
  std::vector<size_t> all;
  for (auto it = postings_.lower_bound(term); it != postings_.end() && it->first.starts_with(term);
       ++it) {
    all.insert(all.end(), it->second.begin(), it->second.end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

OracleAnswer WordOracle::Top(std::string_view query, size_t n,
                             const std::function<bool(size_t skill)>& live) const {
  OracleAnswer answer;
  auto match = discovery::text::TextMatch::Create(query);
  assert(match.has_value());
  const discovery::text::QueryTerms& terms = match->query();
  if (terms.empty()) return answer;  // a text without terms is no word query
  std::vector<std::vector<size_t>> lists;
  for (size_t t = 0; t < terms.size(); ++t)
    lists.push_back(Holding(terms.terms()[t], terms.IsPrefix(t)));
  std::sort(lists.begin(), lists.end(),
            [](const auto& a, const auto& b) { return a.size() < b.size(); });
  std::vector<size_t> common = lists.front();
  for (size_t l = 1; l < lists.size() && !common.empty(); ++l) {
    std::vector<size_t> both;
    std::set_intersection(common.begin(), common.end(), lists[l].begin(), lists[l].end(),
                          std::back_inserter(both));
    common = std::move(both);
  }
  std::vector<discovery::SkillEntryPtr> candidates;
  std::vector<size_t> index_of;
  for (size_t skill : common) {
    if (!live(skill)) continue;
    candidates.push_back(entries_[skill]);
    index_of.push_back(skill);
  }
  // Rank keeps the entries; find each one's skill by its place among the candidates.
  std::map<const discovery::SkillEntry*, size_t> skill_of;
  for (size_t i = 0; i < candidates.size(); ++i) skill_of[candidates[i].get()] = index_of[i];
  for (const discovery::search::ScoredEntry& scored :
       ranking_.Rank(*match, std::move(candidates))) {
    if (scored.score.terms_matched != terms.size()) continue;  // as WordSearch::Finish
    ++answer.matching;
    if (answer.top.size() < n) {
      answer.top.push_back(skill_of.at(scored.entry.get()));
      answer.scores.push_back(scored.score.score);
    } else if (SameScore(scored.score.score, answer.scores.back())) {
      answer.tied.push_back(skill_of.at(scored.entry.get()));
    }
  }
  return answer;
}

}  // namespace skillnode::sim::workloads
