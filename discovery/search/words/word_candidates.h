// WordCandidates: the skills a word search's term pointers lead to, and which to fetch first
// (docs/search.md, "The query"). Each pointer names a record (its key and identity: publisher,
// agent id, skill id) and the term's weight there. A candidate covers the query terms whose
// pointers named it — the intersection of the terms' pointer lists is the candidates covering
// every term — and weighs the sum, over the terms it covers, of its heaviest pointer for each.
// Best() orders them: first those covering every closed term (a term whose pointer lists were
// read to their end: a skill missing from them does not hold it, and every word is required),
// then more terms covered, then heavier, then by identity (deterministic), so that when the
// intersection is short of what is fetched, the candidates matching most terms follow, and a
// rare term read in full is never crowded out by a common term's heavier pointers. Tombstone
// pointers lead nowhere and are skipped.
//
// A term's pointers are read heaviest first and only so far (a common term's are cut short), so
// a skill that holds a term may be missing from that term's list. Every pointer also carries its
// skill's name and the first bytes of its description: CreditFromText counts a term as covered
// when that text holds it (at the lowest weight, 1), so that the intersection does not depend on
// how far the common terms were read. The record fetched is checked in full anyway.
//
// Owned by one search; pure, not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_CANDIDATES_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_CANDIDATES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "discovery/text/query_terms.h"
#include "kademlia/key.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record/term_pointer.h"

namespace skillnode::discovery::search {

struct WordCandidate {
  kademlia::store::RecordIdentity identity;
  kademlia::Key record_key;
  size_t terms_covered = 0;
  uint64_t weight_centi = 0;  // summed over the terms covered
  bool covers_closed = true;  // covers every closed term (WordCandidates::Close)
};

class WordCandidates {
 public:
  // For a query of `terms` terms.
  explicit WordCandidates(size_t terms);

  // Pointers read for query term `term` (under the term itself, a correction or a completion).
  void Add(size_t term, std::span<const kademlia::store::TermPointer> pointers);

  // For each candidate, the query terms (the first `terms`) its pointers' name and description hold
  // (analysed by `analyze`, whose result is the text's DistinctTerms) and no pointer named:
  // covered, weight 1. Each candidate's text is analysed once.
  void CreditFromText(
      const std::function<std::vector<std::string>(const std::string& text)>& analyze,
      const text::QueryTerms& query);

  // Marks query term `term` closed: its pointer lists were read to their end.
  void Close(size_t term);
  // At most `n` candidates, best first.
  std::vector<WordCandidate> Best(size_t n) const;
  size_t size() const { return candidates_.size(); }

 private:
  struct Held {
    kademlia::Key record_key;
    std::vector<uint32_t> weight_centi;  // per query term; 0: not covered
    std::string text;                    // the first pointer's name and description prefix
  };

  size_t terms_;
  std::vector<bool> closed_;  // per query term
  std::map<kademlia::store::RecordIdentity, Held> candidates_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_CANDIDATES_H_
