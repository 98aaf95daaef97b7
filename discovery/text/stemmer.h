// Stemmer: a word's stem in one language, from Snowball's libstemmer ("summaries" and
// "summarise" are both "summari" in English), so that a query and a record match across the
// forms of a word.
//
// Which terms are stemmed (the fixed rule): only TermKind::kWord, words made of letters alone.
// CJK bigrams, numbers ("2024") and words with digits ("mp3", "2fa") are returned unchanged. A
// Snowball stemmer only knows the suffixes of its own language's script, so a word of another
// script (Cyrillic under "english") comes back as it went in.
//
// One sb_stemmer per Stemmer, owned (RAII) and freed with it; move-only. Not thread-safe:
// libstemmer keeps its working buffer in the sb_stemmer, so each thread needs its own Stemmer.
#ifndef SKILLNODE_DISCOVERY_TEXT_STEMMER_H_
#define SKILLNODE_DISCOVERY_TEXT_STEMMER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/text/term.h"
#include "transport/result.h"

struct sb_stemmer;

namespace skillnode::discovery::text {

class Stemmer {
 public:
  // The stemmer of `language`, one of Languages(); kInvalidArgument naming the languages for
  // any other name (names are lower case, as libstemmer spells them).
  [[nodiscard]] static transport::Result<Stemmer> Create(std::string_view language);
  // The languages libstemmer has ("arabic", ..., "english", "french", "german", ...), sorted.
  static std::vector<std::string> Languages();

  // The stem of `term` when the rule above stems it, else its text unchanged.
  std::string Stem(const Term& term);
  const std::string& language() const { return language_; }

 private:
  struct Deleter {
    void operator()(sb_stemmer* stemmer) const;
  };
  Stemmer(std::string language, sb_stemmer* stemmer);

  std::string language_;
  std::unique_ptr<sb_stemmer, Deleter> stemmer_;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_STEMMER_H_
