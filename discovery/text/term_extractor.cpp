// TermExtractor: per-field term frequencies, weighted, bounded to the most distinctive.
#include "discovery/text/term_extractor.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <string_view>
#include <utility>

namespace skillnode::discovery::text {
namespace {

struct Candidate {
  std::string term;
  double weight = 0;
  uint64_t document_frequency = 0;
};

// True when `a` is more distinctive than `b` (the order in the header).
bool MoreDistinctive(const Candidate& a, const Candidate& b) {
  if (a.weight != b.weight) return a.weight > b.weight;
  if (a.document_frequency != b.document_frequency) {
    return a.document_frequency < b.document_frequency;
  }
  if (a.term.size() != b.term.size()) return a.term.size() > b.term.size();
  return a.term < b.term;
}

}  // namespace

TermExtractor::TermExtractor(TermExtractorConfig config)
    : config_(std::move(config)), bm25_(config_.bm25) {
  for (double length : config_.typical_field_length) assert(length >= 0);
}

std::vector<WeightedTerm> TermExtractor::Extract(Analyzer& analyzer, const SkillText& skill,
                                                 const DocumentFrequencyHint& hint) const {
  return Extract(AnalyzeSkill(analyzer, skill), hint);
}

std::vector<WeightedTerm> TermExtractor::Extract(const FieldedTerms& terms,
                                                 const DocumentFrequencyHint& hint) const {
  std::set<std::string_view> distinct;
  for (Field field : kFields) {
    for (const std::string& term : terms.of(field)) distinct.insert(term);
  }
  std::vector<Candidate> candidates;
  candidates.reserve(distinct.size());
  for (std::string_view term : distinct) {
    const double weight = bm25_.TermFrequency(term, terms, config_.typical_field_length);
    if (weight <= 0) continue;  // only in fields weighted 0: not indexed
    const std::optional<uint64_t> frequency = hint ? hint(term) : std::nullopt;
    candidates.push_back(Candidate{std::string(term), weight, frequency.value_or(0)});
  }
  const size_t kept = std::min(candidates.size(), config_.terms_per_skill_max);
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<ptrdiff_t>(kept),
                    candidates.end(), MoreDistinctive);
  std::vector<WeightedTerm> result;
  result.reserve(kept);
  for (size_t i = 0; i < kept; ++i) {
    result.push_back(WeightedTerm{std::move(candidates[i].term), candidates[i].weight});
  }
  return result;
}

}  // namespace skillnode::discovery::text
