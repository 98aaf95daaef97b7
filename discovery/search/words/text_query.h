// TextQuery: one search's free text, for the Searcher's stages (docs/search.md, "The query"):
// the text analysed once (text::TextMatch) and matched against what the local, LAN and store
// stages hold (AddFound puts what matches into the search's merge), the query without its
// text for the stages that filter by Matches() themselves, the typos corrected and the last word
// completed from this node's vocabulary (Correct) and from what a word search found (TakeTerms),
// and the merged answer put in the word-search order (TextRanking: every word held first, then
// BM25F times health). Made only for a text with terms: a text with none filters nothing, and
// the search runs as one without text.
//
// Owned by the search it serves (Searcher's Pending). Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_TEXT_QUERY_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_TEXT_QUERY_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "discovery/query.h"
#include "discovery/search/search_merge.h"
#include "discovery/search/search_types.h"
#include "discovery/search/words/text_ranking.h"
#include "discovery/search/words/vocabulary_feed.h"
#include "discovery/search/words/word_search.h"
#include "discovery/text/text_match.h"

namespace skillnode::discovery::search {

class TextQuery {
 public:
  // Null when `query.text` has no terms.
  static std::unique_ptr<TextQuery> For(const SkillQuery& query);

  // The query without its text: every other filter.
  const SkillQuery& without_text() const { return without_text_; }
  // Whether `record`'s words hold every term (the last also as a prefix, or through the
  // corrections and completions found); the other filters are not checked.
  bool MatchesText(const kademlia::store::SkillRecord& record) { return match_.Matches(record); }
  // The same for an entry, through its words analysed once (SkillEntry::Words).
  bool MatchesText(const SkillEntry& entry) {
    return match_.MatchesWords(entry.Words(match_.analyzer()));
  }
  // Adds to `merge`, from `source`, those of `entries` (or `records`) that a stage found with
  // every filter but the text (without_text()) and whose words hold every term; returns how
  // many. `text` null (a search without terms): the stage found them with every filter, and
  // all are added, LAN records to be checked again when ranked (as before there was text).
  static size_t AddFound(TextQuery* text, const std::vector<SkillEntryPtr>& entries, Source source,
                         SearchMerge& merge);
  static size_t AddFound(TextQuery* text, const std::vector<kademlia::store::SkillRecord>& records,
                         Source source, SearchMerge& merge);

  // Gives each term the vocabulary knows nothing of its corrections (stems one edit away, and
  // the stems of the words one edit from its word), and the last term the stems of the words
  // its word begins, as alternatives: at most `config`'s corrections_max and completions_max
  // of each kind, as a word search reads them. The local and LAN stages then find "Feishu
  // Calendar" for "feishu calender", as the word search does in the index.
  void Correct(VocabularyFeed& vocabulary, const WordSearchConfig& config);
  // Takes the corrections and completions a word search found in the index as alternatives.
  void TakeTerms(const text::QueryTerms& terms);
  // Puts `found` in the word-search order.
  void Order(std::vector<Found>& found, const TextRanking& ranking);

  const text::QueryTerms& terms() const { return match_.query(); }
  // The language the text and the words it is matched against are analysed in.
  const std::string& language() const { return match_.analyzer().language(); }

 private:
  TextQuery(SkillQuery without_text, text::TextMatch match);

  SkillQuery without_text_;
  text::TextMatch match_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_TEXT_QUERY_H_
