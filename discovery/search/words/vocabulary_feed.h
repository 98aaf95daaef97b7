// VocabularyFeed: the node's word-search vocabulary and what feeds it (docs/search.md, "The
// query"). Two vocabularies (text::Vocabulary: completion of the word being typed, one-edit
// correction):
//   - terms: the stems of the records this node sees and those the index answered with pointers;
//   - words: the same records' surface words (Analyzer::AnalyzeWords: case-folded, unstemmed),
//     for the typos stemming moves too far. Snowball stems "calender" to "calend", two edits
//     from "calendar", and a typed "summari" does not begin the stem "summar"; but the word
//     "calender" is one edit from the word "calendar", and "summari" begins "summarize". A word
//     found is answered as its stem, analysed again with the feed's own Analyzer (WordCorrections,
//     WordCompletions), so it is the term the index and the records have.
// Records are noted once per record version (tombstones not at all), so a term's count is about
// the number of skills seen with it. Fed by a word search (the records fetched, the terms read)
// and by the Searcher (the skills registered here: all of them once, then each change as the
// registry reports it; and the records its key lookups fetch).
//
// Bounded: each vocabulary by its own limit (terms_max, words_max); the versions remembered by
// records_max, the oldest forgotten first (a record seen again after that counts once more).
// A version is remembered by a 64-bit SipHash of its identity and sequence under a key
// drawn per feed, not by its strings: a search notes every record it reads, and looking up
// strings in an ordered set was a quarter of a fresh search's time (docs/benchmarks.md). Two
// versions sharing a digest (about 1 in 10^9 at 10^5 versions, and not to be ground without the
// key) would leave the second's words out of the vocabulary, which only corrections read. Owned by
// the Searcher, lent to its WordSearch. Owns an Analyzer: move-only, not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_VOCABULARY_FEED_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_VOCABULARY_FEED_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/registry/registry.h"
#include "discovery/text/analyzer.h"
#include "discovery/text/vocabulary.h"
#include "kademlia/flat_linked_map.h"
#include "kademlia/keyed_hash.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::search {

struct VocabularyLimits {
  // Record versions remembered as noted: as many as the vocabulary's terms by default.
  static constexpr size_t kRecordsRememberedMax = text::Vocabulary::kTermsMaxDefault;
  // Surface words kept: a stem has a few (summarize, summarizes, summarization), so more
  // words than terms; each costs about what a term costs (text::Vocabulary).
  static constexpr size_t kWordsMaxDefault = 2 * text::Vocabulary::kTermsMaxDefault;
  // Words read for each stem answered by WordCorrections and WordCompletions: the forms of one
  // stem count once.
  static constexpr size_t kWordsReadPerStem = 4;

  size_t terms_max = text::Vocabulary::kTermsMaxDefault;
  size_t words_max = kWordsMaxDefault;
  size_t records_max = kRecordsRememberedMax;
};

class VocabularyFeed {
 public:
  explicit VocabularyFeed(VocabularyLimits limits = {});

  // Whether this version of `record` was noted already (its terms need not be analysed).
  bool Noted(const kademlia::store::SkillRecord& record) const;
  // Notes `record`'s distinct terms and surface words, unless this version was noted already or
  // it is a tombstone.
  void NoteRecord(const kademlia::store::SkillRecord& record);
  // A term the index answered with pointers.
  void NoteIndexed(std::string_view term);
  // Notes the skills registered with `registry` the first time it is called: those registered
  // before anything reported them. Later registrations and their changes come one by one through
  // NoteRecord (Searcher::InvalidateRecord, which the registry's observer calls), so a search
  // never walks every registration again.
  void NoteRegistry(const Registry& registry);

  // The stems of the known words one edit from `word` (a query term's surface word), most often
  // noted first, distinct, at most n; `word`'s own stem is never one.
  std::vector<std::string> WordCorrections(std::string_view word, size_t n);
  // The stems of the known words that begin with `prefix` (the last word as typed), likewise.
  std::vector<std::string> WordCompletions(std::string_view prefix, size_t n);

  const text::Vocabulary& vocabulary() const { return terms_; }
  const text::Vocabulary& words() const { return words_; }
  const VocabularyLimits& limits() const { return limits_; }

 private:
  // The digest of a record version: SipHash of its publisher, agentId, skillId and sequence.
  uint64_t DigestOf(const kademlia::store::SkillRecord& record) const;

  // The distinct stems of `found` (words), in order, at most n, none equal to `except`.
  std::vector<std::string> StemsOf(const std::vector<std::string>& found, std::string_view except,
                                   size_t n);
  // The one term `word` analyses to; empty when it is not exactly one.
  std::string StemOf(std::string_view word);

  VocabularyLimits limits_;
  text::Analyzer analyzer_;
  text::Vocabulary terms_;
  text::Vocabulary words_;
  // A digest is SipHash under the feed's key already: its low bits place it.
  struct DigestPlace {
    uint32_t operator()(uint64_t digest) const { return static_cast<uint32_t>(digest); }
  };
  kademlia::HashKey hash_key_;
  kademlia::FlatLinkedMap<uint64_t, bool, DigestPlace> noted_;  // DigestOf the versions noted
  bool registry_noted_ = false;                                 // NoteRegistry ran
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_VOCABULARY_FEED_H_
