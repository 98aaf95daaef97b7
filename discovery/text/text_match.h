// TextMatch: a query's free text prepared once — its Analyzer and its QueryTerms — to match many
// skill records against (docs/search.md, "The query"). A record matches when every term of the
// analysed text is among the terms of its name, description, capabilities, tags and scenes
// (SkillTextOf), the last term also as a prefix (QueryTerms). A text that analyses to no terms
// (empty, or only punctuation, symbols and emoji) filters nothing: Filters() is false and every
// record matches, as a search box left empty shows everything.
//
// Analysing a query costs a stemmer and its stop word list: a search builds one TextMatch and
// keeps it for all the records it sees; Matches(SkillQuery, record) (discovery/query.h) builds
// one per call. Owns its Analyzer, so it is move-only and not thread-safe.
#ifndef SKILLNODE_DISCOVERY_TEXT_TEXT_MATCH_H_
#define SKILLNODE_DISCOVERY_TEXT_TEXT_MATCH_H_

#include <span>
#include <string_view>
#include <vector>

#include "discovery/text/analyzer.h"
#include "discovery/text/query_terms.h"
#include "discovery/text/skill_fields.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/result.h"

namespace skillnode::discovery::text {

class TextMatch {
 public:
  // The text analysed for `language` (Analyzer::Create); fails only for an unknown language.
  [[nodiscard]] static transport::Result<TextMatch> Create(
      std::string_view text, std::string_view language = Analyzer::kDefaultLanguage);

  // Whether the text has terms, and so filters anything.
  bool Filters() const { return !query_.empty(); }
  // Every term of the text is among the record's (the last also as a prefix); true when the
  // text has no terms.
  bool Matches(const kademlia::store::SkillRecord& record);
  // The same for a record's words already analysed (DistinctTerms), such as SkillEntry::Words.
  bool MatchesWords(std::span<const std::string> words) const {
    return !Filters() || query_.AllMatched(words);
  }
  // The record's fields through this match's Analyzer (SkillTextOf, AnalyzeSkill).
  FieldedTerms Analyze(const kademlia::store::SkillRecord& record);

  const QueryTerms& query() const { return query_; }
  QueryTerms& query() { return query_; }
  Analyzer& analyzer() { return analyzer_; }
  const Analyzer& analyzer() const { return analyzer_; }

 private:
  TextMatch(Analyzer analyzer, QueryTerms query);

  Analyzer analyzer_;
  QueryTerms query_;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_TEXT_MATCH_H_
