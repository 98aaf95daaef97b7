// Term: one normalised word of a text, as the Tokenizer makes it, and its kind. The kind decides
// what later steps may do to it: only kWord terms are stemmed (discovery/text/stemmer.h).
// A plain value; no ownership.
#ifndef SKILLNODE_DISCOVERY_TEXT_TERM_H_
#define SKILLNODE_DISCOVERY_TEXT_TERM_H_

#include <string>

namespace skillnode::discovery::text {

enum class TermKind {
  kWord,    // letters only, of an alphabetic script (Latin, Greek, Cyrillic, ...): "calendar"
  kNumber,  // digits only: "2024"
  kMixed,   // letters and digits together: "mp3", "2fa"
  kCjk,     // a bigram of a Han, Kana or Hangul run, or a lone character of one: "翻译"
};

struct Term {
  std::string text;  // NFKC, case-folded UTF-8
  TermKind kind = TermKind::kWord;

  bool operator==(const Term&) const = default;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_TERM_H_
