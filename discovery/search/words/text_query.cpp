// TextQuery: a search's text, corrected, matched and ranked for the Searcher's stages.
#include "discovery/search/words/text_query.h"

#include <cassert>
#include <map>
#include <string>
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

size_t TextQuery::AddFound(TextQuery* text, const std::vector<SkillEntryPtr>& entries,
                           Source source, SearchMerge& merge) {
  size_t added = 0;
  for (const SkillEntryPtr& entry : entries) {
    if (text != nullptr && !text->MatchesText(*entry)) continue;
    merge.Add(entry, source, true);
    ++added;
  }
  return added;
}

size_t TextQuery::AddFound(TextQuery* text,
                           const std::vector<kademlia::store::SkillRecord>& records, Source source,
                           SearchMerge& merge) {
  size_t added = 0;
  for (const kademlia::store::SkillRecord& record : records) {
    if (text != nullptr && !text->MatchesText(record)) continue;
    merge.Add(record, source, text != nullptr);
    ++added;
  }
  return added;
}

void TextQuery::Correct(VocabularyFeed& vocabulary, const WordSearchConfig& config) {
  text::QueryTerms& query = match_.query();
  for (size_t i = 0; i < query.size(); ++i) {
    const std::string& term = query.terms()[i];
    if (!vocabulary.vocabulary().Contains(term)) {
      for (std::string& stem : vocabulary.vocabulary().Correct(term, config.corrections_max)) {
        query.AddAlternative(i, std::move(stem));
      }
      for (std::string& stem :
           vocabulary.WordCorrections(query.surface(i), config.corrections_max)) {
        query.AddAlternative(i, std::move(stem));
      }
    }
    if (!query.IsPrefix(i)) continue;
    for (std::string& stem : vocabulary.WordCompletions(query.surface(i), config.completions_max)) {
      if (!stem.starts_with(term)) query.AddAlternative(i, std::move(stem));
    }
  }
}

void TextQuery::TakeTerms(const text::QueryTerms& terms) {
  text::QueryTerms& query = match_.query();
  assert(terms.terms() == query.terms());
  for (size_t i = 0; i < terms.size(); ++i) {
    for (const std::string& alternative : terms.alternatives(i)) {
      query.AddAlternative(i, alternative);
    }
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
