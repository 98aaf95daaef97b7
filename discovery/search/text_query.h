// TextQuery: one search's free text, for the Searcher's stages (docs/search.md, "The query"):
// the text analysed once (text::TextMatch) and matched against what the local, LAN and store
// stages hold, the query without its text for the stages that filter by Matches() themselves,
// and the merged answer put in the word-search order (TextRanking: every word held first, then
// BM25F times health). Made only for a text with terms: a text with none filters nothing, and
// the search runs as one without text.
//
// Owned by the search it serves (Searcher's Pending). Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_TEXT_QUERY_H_
#define SKILLNODE_DISCOVERY_SEARCH_TEXT_QUERY_H_

#include <memory>
#include <vector>

#include "discovery/query.h"
#include "discovery/search/search_types.h"
#include "discovery/search/text_ranking.h"
#include "discovery/search/vocabulary_feed.h"
#include "discovery/text/text_match.h"

namespace skillnode::discovery::search {

class TextQuery {
 public:
  // Null when `query.text` has no terms.
  static std::unique_ptr<TextQuery> For(const SkillQuery& query);

  // The query without its text: every other filter.
  const SkillQuery& without_text() const { return without_text_; }
  // Whether `record`'s words hold every term (the last also as a prefix, or through the
  // corrections a word search found); the other filters are not checked.
  bool MatchesText(const kademlia::store::SkillRecord& record) { return match_.Matches(record); }
  // Takes the terms a word search read, with the corrections it found as alternatives.
  void TakeTerms(const text::QueryTerms& terms);
  // Notes the terms of `entries` (registered skills) not noted yet.
  void Feed(VocabularyFeed& vocabulary, const std::vector<SkillEntryPtr>& entries);
  // Puts `found` in the word-search order.
  void Order(std::vector<Found>& found, const TextRanking& ranking);

 private:
  TextQuery(SkillQuery without_text, text::TextMatch match);

  SkillQuery without_text_;
  text::TextMatch match_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_TEXT_QUERY_H_
