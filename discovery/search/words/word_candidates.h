// WordCandidates: the skills a word search's term pointers lead to, and which to fetch first
// (docs/search.md, "The query"). Each pointer names a record (its key and identity: publisher,
// agent id, skill id) and the term's weight there. A candidate covers the query terms whose
// pointers named it — the intersection of the terms' pointer lists is the candidates covering
// every term — and estimates its score: BM25's saturation of each covered term's weight (its
// heaviest pointer's), weight * (k1 + 1) / (weight + k1), summed, as TextRanking scores the
// record once fetched (whose candidates all hold every term, so idf weighs every term alike).
// Best() orders them: first those covering every closed term (a term whose pointer lists were
// read to their end: a skill missing from them does not hold it, and every word is required),
// then more terms covered, then the higher estimate, then by identity (deterministic), so that
// when the intersection is short of what is fetched, the candidates matching most terms follow,
// and a rare term read in full is never crowded out by a common term's heavier pointers.
// Tombstone pointers lead nowhere and are skipped.
//
// A term's pointers are read heaviest first and only so far (a common term's are cut short), so
// a skill that holds a term may be missing from that term's list. Every pointer also carries the
// profile of its record's terms (kademlia/store/record/term_profile.h): CreditFromProfiles counts
// a term as covered, at the profile's weight, when the profile holds one of its spellings, so
// that the intersection and the estimate do not depend on how far the common terms were read.
// A pointer of a version without profiles still carries its skill's name and the first bytes of
// its description: CreditFromText counts a term as covered when that text holds it (at the
// lowest weight, 0.01). The record fetched is checked in full anyway.
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
  double estimate = 0;        // BM25's saturated weights, summed over the terms covered
  bool covers_closed = true;  // covers every closed term (WordCandidates::Close)
};

class WordCandidates {
 public:
  // For a query of `terms` terms, estimated with BM25's `k1` (Bm25Config::k1, > 0).
  WordCandidates(size_t terms, double k1);

  // Pointers read for query term `term` (under the term itself, a correction or a completion).
  void Add(size_t term, std::span<const kademlia::store::TermPointer> pointers);

  // For each candidate whose pointers carry a profile, the query terms (the first `terms`) no
  // pointer named that it holds under one of their `spellings` (per query term: the term and
  // the completions and corrections read for it): covered, at the profile's weight.
  void CreditFromProfiles(const std::vector<std::vector<std::string>>& spellings);
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
    std::vector<uint32_t> weight_centi;    // per query term; 0: not covered
    std::string text;                      // the first pointer's name and description prefix
    kademlia::store::TermProfile profile;  // the first non-empty one of its pointers
  };

  size_t terms_;
  double k1_;
  std::vector<bool> closed_;  // per query term
  std::map<kademlia::store::RecordIdentity, Held> candidates_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_CANDIDATES_H_
