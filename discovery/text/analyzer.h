// Analyzer: text to the terms word search indexes and looks up. The one entry point for both a
// record's fields and a query, so the two always agree on what a term is.
//
// Tokenizer (normalise, split, CJK bigrams), then StopWords::Filter (drop stop words unless the
// text has nothing else), then, for English, EnglishSpelling (British -ise to -ize, acronyms'
// plurals), then Stemmer (letter-only words) — in that order, because Snowball's stop word lists
// hold unstemmed forms. See docs/search.md, "Text analysis".
//
// AnalyzeWords gives each term with its surface word: the word as the Tokenizer cut it
// (normalised and case-folded, before spelling folds and stemming), which word-level typo
// correction and completion work on (text::SurfaceWords). The terms are Analyze's, alike.
//
// Owns its Stemmer, so it is move-only and not thread-safe: one Analyzer per thread.
#ifndef SKILLNODE_DISCOVERY_TEXT_ANALYZER_H_
#define SKILLNODE_DISCOVERY_TEXT_ANALYZER_H_

#include <string>
#include <string_view>
#include <vector>

#include "discovery/text/stemmer.h"
#include "discovery/text/stop_words.h"
#include "discovery/text/tokenizer.h"
#include "transport/result.h"

namespace skillnode::discovery::text {

// A term and the word it was made of: "summarize" is the term "summar".
struct AnalyzedWord {
  std::string term;
  std::string surface;

  bool operator==(const AnalyzedWord&) const = default;
};

class Analyzer {
 public:
  static constexpr std::string_view kDefaultLanguage = "english";

  // An analyzer for `language` (Stemmer::Languages()); the stop word list is the language's
  // own, or none (StopWords::Languages()). Fails as Stemmer::Create does.
  [[nodiscard]] static transport::Result<Analyzer> Create(
      std::string_view language = kDefaultLanguage);

  // The terms of `text`, in order, repeats included.
  std::vector<std::string> Analyze(std::string_view text);
  // The same terms, each with its surface word.
  std::vector<AnalyzedWord> AnalyzeWords(std::string_view text);
  const std::string& language() const { return stemmer_.language(); }

 private:
  Analyzer(StopWords stop_words, Stemmer stemmer);

  Tokenizer tokenizer_;
  StopWords stop_words_;
  Stemmer stemmer_;
  bool fold_british_;  // English ("english", "porter"): EnglishSpelling before stemming
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_ANALYZER_H_
