// QueryReads: what one word search (word_search.h) has read for each query term it reads, and
// what those reads say together. A term is read as one or more lookups: its own spelling, the
// last word's completions as the user types, and a missing term's one-edit corrections; each
// lookup holds its TermReading once answered. Together they tell how common each term is, which
// term is the rarest (its pointers bound the answer), which terms may filter another's read
// (docs/protocol.md "Filtered reads"), and the candidates the pointers lead to (WordCandidates).
//
// A plain value owned by the search; no I/O, not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_QUERY_READS_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_QUERY_READS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "discovery/search/words/word_candidates.h"
#include "discovery/search/words/word_sources.h"
#include "discovery/text/text_match.h"

namespace skillnode::discovery::search {

// One read of a term: the query's term itself, a completion of the last one, or a correction.
struct TermLookup {
  explicit TermLookup(std::string t, bool a = false) : term(std::move(t)), alternative(a) {}
  std::string term;
  // Read with pointers, a record holding it matches the term: a correction, or the stem of a
  // word completed (a stem completion matches as a prefix already).
  bool alternative = false;
  TermReading reading;
};

// Where a term's reads are: its first lookups out, its corrections out, or done.
enum class TermPhase : uint8_t { kProbing, kCorrecting, kSettled };

// The lookups of one query term.
struct TermReads {
  std::vector<TermLookup> lookups;
  TermPhase phase = TermPhase::kProbing;
  size_t outstanding = 0;  // lookups of this term not answered yet

  bool Holds(const std::string& term) const;
  // Adds a lookup of `term` unless there is one; whether it did.
  bool Add(std::string term, bool alternative);
  bool HasPointers() const;
  bool AllFailed() const;
  // How common the term is: its lookups' shard-0 counts, at least the pointers they gave.
  uint64_t Count() const;
  // Read under its own spelling alone (no completion, no correction), with pointers: a record
  // matches it exactly when its profile holds the spelling's hash.
  bool SingleSpelling() const;
};

class QueryReads {
 public:
  explicit QueryReads(size_t terms = 0) : terms_(terms) {}

  size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }
  TermReads& operator[](size_t term) { return terms_.at(term); }
  const TermReads& operator[](size_t term) const { return terms_.at(term); }

  // The term with pointers whose Count is lowest (the first of equals); none when no term has
  // pointers.
  std::optional<size_t> Rarest() const;
  // Every term's every lookup failed (and there is a term): no holder could be reached.
  bool AllFailed() const;
  // The hashes (TermProfile::HashOf) a read of `term` may be filtered by: every other term read
  // under a single spelling (TermReads::SingleSpelling), in query order, at most `max`. A term
  // with completions or corrections is matched by any of its spellings, which one hash cannot
  // say; a term nothing was read for says nothing of the records.
  std::vector<uint16_t> FilterFor(size_t term, size_t max) const;
  // The candidates the reads so far lead to: every lookup's pointers, the terms read to their
  // end (under every spelling tried) closed, and the terms credited from the pointers' profiles
  // (under every spelling read: the term, its completions, and the corrections that have
  // pointers), then from their text as `match`'s analyser reads it.
  WordCandidates Candidates(text::TextMatch& match, double k1) const;

 private:
  std::vector<TermReads> terms_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_QUERY_READS_H_
