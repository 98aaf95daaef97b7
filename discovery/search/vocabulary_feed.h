// VocabularyFeed: the node's word-search vocabulary (text::Vocabulary: completion of the word
// being typed, one-edit correction of a term the index lacks) and what feeds it: the terms of
// the records this node sees — fetched by a word search, registered with it — once per record
// version, and the terms read from the index with pointers. A record version already noted is
// not counted again, so a term's count is about the number of skills seen with it.
//
// Bounded: the vocabulary by its own terms_max; the versions remembered by records_max, all
// forgotten at once when full (a record seen again after that counts once more). Owned by the
// Searcher, lent to its WordSearch. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_VOCABULARY_FEED_H_
#define SKILLNODE_DISCOVERY_SEARCH_VOCABULARY_FEED_H_

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/text/vocabulary.h"
#include "kademlia/store/skill_record.h"

namespace skillnode::discovery::search {

class VocabularyFeed {
 public:
  // Record versions remembered as noted: as many as the vocabulary's terms by default.
  static constexpr size_t kRecordsRememberedMax = text::Vocabulary::kTermsMaxDefault;

  explicit VocabularyFeed(size_t terms_max = text::Vocabulary::kTermsMaxDefault,
                          size_t records_max = kRecordsRememberedMax);

  // Whether this version of `record` was noted already (its terms need not be analysed).
  bool Noted(const kademlia::store::SkillRecord& record) const;
  // Notes `record`'s distinct terms, unless this version was noted already.
  void NoteRecord(const kademlia::store::SkillRecord& record,
                  const std::vector<std::string>& distinct_terms);
  // A term the index answered with pointers.
  void NoteIndexed(std::string_view term);

  const text::Vocabulary& vocabulary() const { return vocabulary_; }

 private:
  using Version = std::pair<kademlia::store::RecordIdentity, uint64_t>;  // identity, sequence

  text::Vocabulary vocabulary_;
  size_t records_max_;
  std::set<Version> noted_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_VOCABULARY_FEED_H_
