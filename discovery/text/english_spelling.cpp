// EnglishSpelling: -ise/-yse to -ize/-yze and acronyms' plurals, which Snowball does not fold.
#include "discovery/text/english_spelling.h"

namespace skillnode::discovery::text {
namespace {

// The endings after the "is"/"ys", longest first.
constexpr std::string_view kEndings[] = {"ations", "ation", "ing", "ers", "ed", "es", "er", "e"};

bool IsAsciiConsonant(char c) {
  if (c < 'a' || c > 'z') return false;
  return c != 'a' && c != 'e' && c != 'i' && c != 'o' && c != 'u' && c != 'y';
}

}  // namespace

std::string EnglishSpelling::FoldAcronymPlural(std::string_view word) {
  if (word.size() < kAcronymBytesMin + 1 || !word.ends_with('s') || word.ends_with("ss")) {
    return std::string(word);
  }
  const std::string_view stem = word.substr(0, word.size() - 1);
  for (const char c : stem) {
    if (!IsAsciiConsonant(c)) return std::string(word);
  }
  return std::string(stem);
}

std::string EnglishSpelling::FoldBritish(std::string_view word) {
  std::string folded(word);
  for (std::string_view ending : kEndings) {
    if (!word.ends_with(ending)) continue;
    const size_t s_at = word.size() - ending.size() - 1;  // the 's' of "is"/"ys"
    if (word.size() < ending.size() + 2 || s_at - 1 < kStemBytesMin) continue;
    if (word[s_at] != 's' || (word[s_at - 1] != 'i' && word[s_at - 1] != 'y')) continue;
    folded[s_at] = 'z';
    return folded;
  }
  return folded;
}

}  // namespace skillnode::discovery::text
