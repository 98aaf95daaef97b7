// Vocabulary: the terms a node has seen, with how often, to finish the word a user is typing
// and to correct a term the index does not have (docs/search.md, "Text analysis").
//
// Bounded: at most terms_max terms; noting a new term when full evicts the least recently
// noted one. A term longer than Tokenizer::kTermBytesMax bytes, or empty, is not kept.
//
// Complete(prefix, n): the known terms starting with `prefix` (the last word as it is typed),
// most often noted first, then byte-wise, at most n. Costs the number of terms with that prefix.
//
// Correct(term, n): the known terms one edit away from `term` — a code point inserted,
// deleted, substituted, or two adjacent ones transposed (so an accent or a CJK character is one
// edit) — most often noted first, then byte-wise, at most n; `term` itself is never one. Found
// through a deletion index (SymSpell's idea): every known term is filed under itself and under
// each string one deletion from it, and the candidates for `term` are those filed under `term`
// or one of its own deletions, then checked; never by trying every possible edit.
//
// Not thread-safe. Terms are normalised UTF-8 (Analyzer's output); other bytes are still handled,
// each byte that does not start a code point taken with the one before it.
#ifndef SKILLNODE_DISCOVERY_TEXT_VOCABULARY_H_
#define SKILLNODE_DISCOVERY_TEXT_VOCABULARY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace skillnode::discovery::text {

class Vocabulary {
 public:
  // Each term costs itself and one filed deletion per code point: about 1 KB for a long one.
  static constexpr size_t kTermsMaxDefault = 100'000;

  explicit Vocabulary(size_t terms_max = kTermsMaxDefault);

  // Counts `count` more sightings of `term` and makes it the most recently noted.
  void Note(std::string_view term, uint64_t count = 1);

  bool Contains(std::string_view term) const { return terms_.find(term) != terms_.end(); }
  uint64_t CountOf(std::string_view term) const;
  size_t size() const { return terms_.size(); }

  std::vector<std::string> Complete(std::string_view prefix, size_t n) const;
  std::vector<std::string> Correct(std::string_view term, size_t n) const;

 private:
  struct Entry {
    uint64_t count = 0;
    uint64_t last_noted = 0;  // tick_ when last noted
  };

  void Evict();
  void File(const std::string& term);
  void Unfile(const std::string& term);
  // The best n of `terms`, by count then bytes.
  std::vector<std::string> Best(std::vector<std::string> terms, size_t n) const;

  size_t terms_max_;
  uint64_t tick_ = 0;
  std::map<std::string, Entry, std::less<>> terms_;
  std::map<uint64_t, std::string> by_recency_;  // last_noted -> term
  // A term, or a term with one code point deleted -> the known terms filed under it.
  std::unordered_map<std::string, std::vector<std::string>> deletions_;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_VOCABULARY_H_
