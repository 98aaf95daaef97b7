// WordSearch: answers a query's free text across the network through the keyword index
// (docs/protocol.md "Keyword index", docs/search.md "The query"). One search:
//   1. analyses the text (text::TextMatch); at most terms_per_query_max terms are read (the
//      first ones; every term still counts when a record is checked);
//   2. reads each term's heaviest probe_pointers pointers (shard 0 first, whose count says how
//      common the term is); the last term is also read as the vocabulary's completions of it
//      (completions_max), as the user types, and as the stems of the words that begin with the
//      word as typed (completions_max more: "summari" completes the word "summarize", the stem
//      "summar"); such a stem that has pointers becomes an alternative of the term;
//   3. a term the index has nothing for is read again as the vocabulary's one-edit corrections
//      of it and the stems of the words one edit from its word (corrections_max each: "calender"
//      is the stem "calend", two edits from "calendar", but the word is one edit from the word
//      "calendar") before it is given up; a correction that has pointers becomes an
//      alternative of the term (QueryTerms::AddAlternative);
//   4. reads the rarest term (the lowest count) further, up to term_pointers_read_max pointers,
//      when its probe was cut short: its pointers bound the answer. The read is filtered by the
//      other terms read under one spelling (docs/protocol.md "Filtered reads"): its holders list
//      only the pointers whose records hold those terms too, so that a common term's read
//      reaches the intersection rather than stopping at its heaviest pointers; unless the probes
//      already give candidates_fetched_max candidates covering every term read (a one-word query's
//      probe always does: its heaviest pointers are the skills ranked first, and reading a
//      shard further costs a page, one round trip, per 3 or 4 pointers);
//   5. intersects: candidates covering every term first (a pointer's profile of its record's
//      terms counts), then those covering most, the highest estimated score first
//      (WordCandidates); fetches the records of the best candidates_fetched_max, at most
//      gets_in_flight_max gets at once (a get verifies); drops a candidate whose record is
//      missing, a tombstone, or of another publisher than its pointers' (its identity is not
//      under the key), and one the query's other filters refuse (MatchesExceptText);
//   6. ranks with TextRanking (BM25F, times health) the fetched records that hold every term
//      (as the local stage's Matches asks), among themselves: their idf and average field
//      lengths are theirs; one holding only some was fetched as a lead and is neither answered
//      nor counted (it still teaches the vocabulary its words).
// The vocabulary (VocabularyFeed) is fed with the terms read and the records fetched.
//
// Reads through TermSource and RecordSource (discovery/search/words/word_sources.h), which it does
// not own and which must outlive it. The callback is called exactly once, possibly before Search
// returns; not after the WordSearch is destroyed. No clock of its own; not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_SEARCH_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "discovery/query.h"
#include "discovery/search/words/text_ranking.h"
#include "discovery/search/words/vocabulary_feed.h"
#include "discovery/search/words/word_candidates.h"
#include "discovery/search/words/word_sources.h"
#include "discovery/text/query_terms.h"
#include "kademlia/store/record/term_pointer.h"
#include "transport/clock.h"

namespace skillnode::discovery::search {

struct WordSearchConfig {
  // Terms read per query: each costs a lookup (and its corrections, completions, more).
  static constexpr size_t kTermsPerQueryMax = 8;
  // Pointers first read per term: a few VALUES pages of shard 0, its heaviest leads and count.
  static constexpr size_t kProbePointers = 64;
  // Pointers read for the rarest term (docs/protocol.md "Reading shards": two full shards).
  static constexpr size_t kTermPointersReadMax = 2 * kademlia::store::kTermPointersPerKeyMax;
  // Records fetched per query: each is a get of up to a few pages.
  static constexpr size_t kCandidatesFetchedMax = 50;
  // Record gets at once: 50 candidates are 4 rounds of lookups (each a few round trips).
  static constexpr size_t kGetsInFlightMax = 16;
  // Corrections read for a term the index lacks, completions for the last term: each that many
  // stems, and as many stems of surface words (VocabularyFeed::WordCorrections, WordCompletions).
  static constexpr size_t kCorrectionsMax = 3;
  static constexpr size_t kCompletionsMax = 3;

  size_t terms_per_query_max = kTermsPerQueryMax;
  size_t probe_pointers = kProbePointers;
  size_t term_pointers_read_max = kTermPointersReadMax;
  size_t candidates_fetched_max = kCandidatesFetchedMax;
  size_t gets_in_flight_max = kGetsInFlightMax;
  size_t corrections_max = kCorrectionsMax;
  size_t completions_max = kCompletionsMax;
  TextRankingConfig ranking;
  // The rarest term's further read is filtered by the other terms (step 4). Off: read as it
  // comes, heaviest first (what a reader of an earlier version does).
  bool filtered_reads = true;
  // WordAnswer::passed_over is filled (skillsim's miss census: was a skill the search missed
  // among its candidates?). Off in the node: it costs a second ordering of every candidate.
  bool report_passed_over = false;
};

struct WordAnswer {
  std::vector<ScoredEntry> hits;  // ranked; each holds every term
  text::QueryTerms terms;         // the query's, with the corrections read as alternatives
  bool failed = false;            // not one term could be read: no holder reachable
  // Candidates fetched and dropped: the get failed, or its record was missing, a tombstone or
  // only another publisher's (at most candidates_fetched_max).
  std::vector<kademlia::store::RecordIdentity> dropped;
  // With WordSearchConfig::report_passed_over: the candidates its pointers led to that were
  // not fetched (past candidates_fetched_max), best first.
  std::vector<kademlia::store::RecordIdentity> passed_over;
};

class WordSearch {
 public:
  using Callback = std::function<void(transport::TimePoint, WordAnswer)>;

  WordSearch(TermSource& terms, RecordSource& records, VocabularyFeed& vocabulary,
             WordSearchConfig config = {});
  WordSearch(const WordSearch&) = delete;
  WordSearch& operator=(const WordSearch&) = delete;
  ~WordSearch();

  // Searches for `query.text`; the query's other filters apply to the records fetched.
  void Search(transport::TimePoint now, const SkillQuery& query, Callback done);

  struct Stats {
    uint64_t searches = 0;
    uint64_t term_reads = 0;          // ReadTerm calls, corrections and further reads included
    uint64_t corrections_read = 0;    // of them, corrections
    uint64_t further_reads = 0;       // of them, the rarest term read further
    uint64_t filtered_reads = 0;      // of those, filtered by the other terms
    uint64_t record_gets = 0;         // GetRecords calls
    uint64_t candidates_dropped = 0;  // record missing, a tombstone or another publisher's
  };
  const Stats& stats() const { return stats_; }
  const WordSearchConfig& config() const { return config_; }

 private:
  struct Run;  // one search (word_search.cpp)
  using RunPtr = std::shared_ptr<Run>;

  void Read(transport::TimePoint now, const RunPtr& run, size_t term, size_t lookup, size_t wanted,
            const std::vector<uint16_t>& with_terms);
  void OnRead(const RunPtr& run, size_t term, size_t lookup, transport::TimePoint now,
              TermReading reading);
  void Correct(transport::TimePoint now, const RunPtr& run, size_t term);
  void AfterReads(transport::TimePoint now, const RunPtr& run);
  // The candidates_fetched_max best candidates the reads so far lead to.
  std::vector<WordCandidate> BestOf(Run& run) const;
  // Whether `best` holds candidates_fetched_max candidates covering all `terms`.
  bool EnoughCovered(const std::vector<WordCandidate>& best, size_t terms) const;
  // Fetches the records of `best` (BestOf after the last read).
  void Fetch(transport::TimePoint now, const RunPtr& run, std::vector<WordCandidate> best);
  void Pump(transport::TimePoint now, const RunPtr& run);
  void OnRecords(const RunPtr& run, size_t group, transport::TimePoint now,
                 const std::vector<kademlia::store::SignedRecordPtr>& records, bool failed);
  void Finish(transport::TimePoint now, const RunPtr& run);

  TermSource& terms_;
  RecordSource& records_;
  VocabularyFeed& vocabulary_;
  WordSearchConfig config_;
  TextRanking ranking_;
  Stats stats_;
  // Reads that answer after the WordSearch is gone find this expired and do nothing.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_SEARCH_H_
