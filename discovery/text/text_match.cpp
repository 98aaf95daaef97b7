// TextMatch: a query's text analysed once, matched against records.
#include "discovery/text/text_match.h"

#include <utility>

#include "discovery/text/record_text.h"

namespace skillnode::discovery::text {

transport::Result<TextMatch> TextMatch::Create(std::string_view text, std::string_view language) {
  transport::Result<Analyzer> analyzer = Analyzer::Create(language);
  if (!analyzer) return tl::unexpected(analyzer.error());
  QueryTerms query = QueryTerms::Of(*analyzer, text);
  return TextMatch(std::move(*analyzer), std::move(query));
}

TextMatch::TextMatch(Analyzer analyzer, QueryTerms query)
    : analyzer_(std::move(analyzer)), query_(std::move(query)) {}

bool TextMatch::Matches(const kademlia::store::SkillRecord& record) {
  if (!Filters()) return true;
  return query_.AllMatched(DistinctTerms(Analyze(record)));
}

FieldedTerms TextMatch::Analyze(const kademlia::store::SkillRecord& record) {
  return AnalyzeSkill(analyzer_, SkillTextOf(record));
}

}  // namespace skillnode::discovery::text
