// TextQuery: a search's text, matched and ranked for the Searcher's stages.
#include "discovery/search/text_query.h"

#include <cassert>
#include <map>
#include <utility>

#include "discovery/text/query_terms.h"

namespace skillnode::discovery::search {

std::unique_ptr<TextQuery> TextQuery::For(const SkillQuery& query) {
  if (query.text.empty()) return nullptr;
  transport::Result<text::TextMatch> match = text::TextMatch::Create(query.text);
  assert(match.has_value());  // the default language is always there
  if (!match->Filters()) return nullptr;
  SkillQuery without_text = query;
  without_text.text.clear();
  return std::unique_ptr<TextQuery>(new TextQuery(std::move(without_text), std::move(*match)));
}

TextQuery::TextQuery(SkillQuery without_text, text::TextMatch match)
    : without_text_(std::move(without_text)), match_(std::move(match)) {}

void TextQuery::TakeTerms(const text::QueryTerms& terms) {
  assert(terms.terms() == match_.query().terms());
  match_.query() = terms;
}

void TextQuery::Feed(VocabularyFeed& vocabulary, const std::vector<SkillEntryPtr>& entries) {
  for (const SkillEntryPtr& entry : entries) {
    if (vocabulary.Noted(entry->record())) continue;
    vocabulary.NoteRecord(entry->record(), text::DistinctTerms(match_.Analyze(entry->record())));
  }
}

void TextQuery::Order(std::vector<Found>& found, const TextRanking& ranking) {
  std::map<const SkillEntry*, Source> sources;
  std::vector<SkillEntryPtr> entries;
  entries.reserve(found.size());
  for (const Found& f : found) {
    sources.emplace(f.entry.get(), f.source);
    entries.push_back(f.entry);
  }
  std::vector<Found> ordered;
  ordered.reserve(found.size());
  for (ScoredEntry& scored : ranking.Rank(match_, std::move(entries))) {
    const Source source = sources.at(scored.entry.get());
    ordered.push_back(Found{std::move(scored.entry), source});
  }
  found = std::move(ordered);
}

}  // namespace skillnode::discovery::search
