// Tokenizer: UTF-8 text to normalised terms, the first step of word search (docs/search.md,
// "Text analysis").
//
// The rule, in order:
// 1. At most kInputBytesMax bytes of the text are read; the rest is ignored.
// 2. A byte that does not start a valid UTF-8 sequence (a stray continuation byte, an overlong
//    form, a surrogate, a sequence cut short) is a separator: it is skipped, never an error.
// 3. The text is normalised to NFKC and case-folded (utf8proc), and default-ignorable code
//    points (soft hyphen, zero-width joiner) are removed: "Ｆｕｌｌ" is "full", "ß" and "ẞ" are
//    "ss", a decomposed "é" (e + U+0301) is the composed "é". Diacritics are kept: "café" and
//    "cafe" are two terms (they distinguish words in many languages and Snowball's stemmers
//    expect them; the Vocabulary's one-edit correction bridges the two).
// 4. A term is a maximal run of letters (category L*) and digits (N*), with the combining marks
//    (M*) that follow them. Every other code point (punctuation, symbols, emoji, spaces,
//    controls) separates terms and is dropped: "feishu-calendar" is "feishu" "calendar",
//    "PDF/A" is "pdf" "a", "e-mail" is "e" "mail", "don't" is "don" "t".
// 5. Han, Hiragana, Katakana and Hangul are written without spaces between words, so a run of
//    them is split into overlapping bigrams: "日本語" is "日本" "本語"; a single character
//    alone stays a unigram. Such a run also ends at a change of script: "翻译japanese" is
//    "翻译" "japanese".
// 6. A term longer than kTermBytesMax bytes (a hash, a base64 blob) is dropped, not truncated:
//    a prefix of it would match words it does not contain.
// Other scripts written without spaces (Thai, Lao, Khmer) are not segmented: a run is one term.
//
// Stateless and thread-compatible; a pure function of its input.
#ifndef SKILLNODE_DISCOVERY_TEXT_TOKENIZER_H_
#define SKILLNODE_DISCOVERY_TEXT_TOKENIZER_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "discovery/text/term.h"

namespace skillnode::discovery::text {

class Tokenizer {
 public:
  // A skill's whole description fits; a longer text is read only this far.
  static constexpr size_t kInputBytesMax = 64 * 1024;
  // Longer than any word of a natural language (16 CJK characters, 64 Latin letters).
  static constexpr size_t kTermBytesMax = 64;

  // The terms of `text`, in the order they occur, repeats included.
  std::vector<Term> Tokenize(std::string_view text) const;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_TOKENIZER_H_
