// StopWords: the words too common to tell skills apart ("the", "und", "les"), per language,
// and the rule that drops them.
//
// The lists are Snowball's stop word lists (snowballstem.org) for english, german and french;
// other languages have none. The Snowball lists hold English contractions ("don't"); the
// Tokenizer splits those at the apostrophe, so the English list holds their fragments ("don"
// is left out: it is a name; so are "can", "won" and "let", which are words of their own).
// Every word is put through the Tokenizer when the list is built, so a list and a text always
// agree on form ("daß" is "dass").
//
// The rule (Filter): a text's stop words are dropped, unless the text is made only of stop
// words, when all its terms are kept. The same rule serves a record's field and a query, so a
// skill named "The Who" is still indexed under "the" and "who", and a query "the who" still
// searches, for the terms that record was indexed under.
//
// Immutable after construction: thread-compatible.
#ifndef SKILLNODE_DISCOVERY_TEXT_STOP_WORDS_H_
#define SKILLNODE_DISCOVERY_TEXT_STOP_WORDS_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/text/term.h"

namespace skillnode::discovery::text {

class StopWords {
 public:
  // The list of `language` (a libstemmer name: "english", "german", "french"); an empty list
  // for a language without one.
  static StopWords ForLanguage(std::string_view language);
  // The languages that have a list.
  static std::vector<std::string> Languages();

  bool Contains(std::string_view term) const { return words_.find(term) != words_.end(); }
  size_t size() const { return words_.size(); }

  // `terms` without their stop words, or all of them when every one is a stop word.
  std::vector<Term> Filter(std::vector<Term> terms) const;

 private:
  explicit StopWords(std::string_view words);

  std::set<std::string, std::less<>> words_;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_STOP_WORDS_H_
