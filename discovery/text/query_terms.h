// QueryTerms: the terms of a search's free text (SkillQuery::text) once analysed, and what it
// means for a skill's terms to match them (docs/search.md, "The query"):
//   - every query term is among the skill's terms (all fields together);
//   - the LAST query term also matches a skill term it begins, as the user types: "calen"
//     matches "calendar". It is the last word analysed, so a query "pdf summ" completes "summ";
//   - a term may be given alternatives (WordSearch adds the one-edit corrections and the
//     completions the index had for it): a skill term equal to one of them matches it too.
// Terms are kept distinct, in the order they first appear, except that the last word analysed
// stays last (it is the one completed). Each term keeps the surface word it was analysed from
// (Analyzer::AnalyzeWords; the last term, the last word's), for word-level typo correction and
// completion (text::SurfaceWords). A text that analyses to nothing has no terms: it
// filters nothing (TextMatch, SkillQuery).
//
// A skill's terms are given as DistinctTerms: sorted and distinct, so that a term or a prefix
// is found by binary search. A plain value; pure.
#ifndef SKILLNODE_DISCOVERY_TEXT_QUERY_TERMS_H_
#define SKILLNODE_DISCOVERY_TEXT_QUERY_TERMS_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/text/skill_fields.h"

namespace skillnode::discovery::text {

class Analyzer;
struct AnalyzedWord;

// The distinct terms of all of a skill's fields, sorted byte-wise.
std::vector<std::string> DistinctTerms(const FieldedTerms& terms);

class QueryTerms {
 public:
  QueryTerms() = default;
  // From the Analyzer's output for a text: in order, repeats included.
  // Each term is its own surface word.
  explicit QueryTerms(const std::vector<std::string>& analysed);
  explicit QueryTerms(const std::vector<AnalyzedWord>& analysed);
  static QueryTerms Of(Analyzer& analyzer, std::string_view text);

  const std::vector<std::string>& terms() const { return terms_; }
  // The word term `i` was analysed from: "calender" for the term "calend".
  const std::string& surface(size_t i) const;
  size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }
  // Whether term `i` also matches as a prefix: the last one.
  bool IsPrefix(size_t i) const { return i + 1 == terms_.size(); }

  // Term `i` also matches a skill term equal to `alternative` (a correction or a completion);
  // alternatives are tried in the order added, after the term itself.
  void AddAlternative(size_t i, std::string alternative);
  const std::vector<std::string>& alternatives(size_t i) const;

  // The skill term that term `i` matches among `record_terms` (DistinctTerms): the term itself;
  // else its first alternative held; else, for the last term, the first skill term (byte-wise)
  // it begins. nullopt when none. The view is into `record_terms` or this.
  std::optional<std::string_view> MatchIn(size_t i,
                                          std::span<const std::string> record_terms) const;
  // How many terms match in `record_terms`.
  size_t CountMatched(std::span<const std::string> record_terms) const;
  // Every term matches (true when there are none).
  bool AllMatched(std::span<const std::string> record_terms) const;

 private:
  std::vector<std::string> terms_;
  std::vector<std::string> surfaces_;                   // one per term
  std::vector<std::vector<std::string>> alternatives_;  // one list per term
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_QUERY_TERMS_H_
