// QueryTerms: a query's analysed terms and how a skill's terms match them.
#include "discovery/text/query_terms.h"

#include <algorithm>
#include <cassert>

#include "discovery/text/analyzer.h"

namespace skillnode::discovery::text {
namespace {

bool Holds(std::span<const std::string> sorted, std::string_view term) {
  return std::binary_search(sorted.begin(), sorted.end(), term, std::less<>());
}

}  // namespace

std::vector<std::string> DistinctTerms(const FieldedTerms& terms) {
  std::vector<std::string> out;
  for (Field field : kFields) {
    out.insert(out.end(), terms.of(field).begin(), terms.of(field).end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

QueryTerms::QueryTerms(const std::vector<std::string>& analysed)
    : QueryTerms([&analysed] {
        std::vector<AnalyzedWord> words;
        for (const std::string& term : analysed) words.push_back(AnalyzedWord{term, term});
        return words;
      }()) {}

QueryTerms::QueryTerms(const std::vector<AnalyzedWord>& analysed) {
  for (const AnalyzedWord& word : analysed) {
    if (std::find(terms_.begin(), terms_.end(), word.term) == terms_.end()) {
      terms_.push_back(word.term);
      surfaces_.push_back(word.surface);
    }
  }
  if (!analysed.empty()) {
    // The last word analysed is the one being typed: it goes last, to be completed, as typed.
    const auto last = std::find(terms_.begin(), terms_.end(), analysed.back().term);
    const auto at = last - terms_.begin();
    std::rotate(last, last + 1, terms_.end());
    std::rotate(surfaces_.begin() + at, surfaces_.begin() + at + 1, surfaces_.end());
    surfaces_.back() = analysed.back().surface;
  }
  alternatives_.resize(terms_.size());
  assert(surfaces_.size() == terms_.size());
}

QueryTerms QueryTerms::Of(Analyzer& analyzer, std::string_view text) {
  return QueryTerms(analyzer.AnalyzeWords(text));
}

const std::string& QueryTerms::surface(size_t i) const {
  assert(i < surfaces_.size());
  return surfaces_[i];
}

void QueryTerms::AddAlternative(size_t i, std::string alternative) {
  assert(i < terms_.size());
  std::vector<std::string>& list = alternatives_[i];
  if (alternative == terms_[i]) return;
  if (std::find(list.begin(), list.end(), alternative) != list.end()) return;
  list.push_back(std::move(alternative));
}

const std::vector<std::string>& QueryTerms::alternatives(size_t i) const {
  assert(i < terms_.size());
  return alternatives_[i];
}

std::optional<std::string_view> QueryTerms::MatchIn(
    size_t i, std::span<const std::string> record_terms) const {
  assert(i < terms_.size());
  const std::string& term = terms_[i];
  if (Holds(record_terms, term)) return std::string_view(term);
  for (const std::string& alternative : alternatives_[i]) {
    if (Holds(record_terms, alternative)) return std::string_view(alternative);
  }
  if (IsPrefix(i)) {
    auto it = std::lower_bound(record_terms.begin(), record_terms.end(), term, std::less<>());
    if (it != record_terms.end() && std::string_view(*it).starts_with(term)) {
      return std::string_view(*it);
    }
  }
  return std::nullopt;
}

size_t QueryTerms::CountMatched(std::span<const std::string> record_terms) const {
  size_t matched = 0;
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (MatchIn(i, record_terms)) ++matched;
  }
  return matched;
}

bool QueryTerms::AllMatched(std::span<const std::string> record_terms) const {
  for (size_t i = 0; i < terms_.size(); ++i) {
    if (!MatchIn(i, record_terms)) return false;
  }
  return true;
}

}  // namespace skillnode::discovery::text
