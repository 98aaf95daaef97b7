// EnglishSpelling: what Snowball's english stemmer does not fold, folded before a word is stemmed.
//
// FoldBritish: British -ise and -yse spellings to -ize and -yze, because Snowball's english stemmer
// keeps them apart ("summarise" stems to "summaris", "summarize" to "summar"), and a query in one
// spelling must find a skill written in the other.
//
// The rule: a letter-only word ending in one of ise ised ises ising iser isers isation isations
// (or the same with yse: analyse, paralysed) has that "is"/"ys" turned to "iz"/"yz", when at
// least kStemBytesMin bytes come before it — so "rise", "wise", "noise" and "raise" are left
// alone. Words always spelt -ise ("promise", "exercise") are folded too; that is harmless, since
// a record and a query are folded alike, and only merges them with an -ize word of the same stem,
// of which English has almost none ("prise"/"prize").
//
// FoldAcronymPlural: the plural of a word with no vowel — an acronym: "pdfs", "llms", "apis" has
// one — loses its final "s" ("pdf", "llm"), because Porter2's step 1a deletes a plural "s" only
// after a vowel, so "pdfs" would never find "PDF". The rule: an ASCII word of at least
// kAcronymBytesMin consonants (y counts as a vowel, as in Porter2) then one "s", not "ss". An
// acronym that ends in "s" itself ("gps", "sms") loses it too, in records and queries alike, so
// they still meet.
//
// Pure and stateless.
#ifndef SKILLNODE_DISCOVERY_TEXT_ENGLISH_SPELLING_H_
#define SKILLNODE_DISCOVERY_TEXT_ENGLISH_SPELLING_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace skillnode::discovery::text {

class EnglishSpelling {
 public:
  static constexpr size_t kStemBytesMin = 3;
  // Consonants before the "s" of an acronym's plural: "dbs" is "db"'s, "ms" is left alone.
  static constexpr size_t kAcronymBytesMin = 2;

  // `word` (case-folded, as the Tokenizer gives it) with its British ending folded.
  static std::string FoldBritish(std::string_view word);
  // `word` (case-folded) without the "s" of an acronym's plural.
  static std::string FoldAcronymPlural(std::string_view word);
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_ENGLISH_SPELLING_H_
