// WordPostings: the Registry's registrations by the words of their searchable text (the
// postings of an inverted index: word -> registrations), so that a search's free text is matched
// against the registrations holding its rarest term instead of against every registration.
//
// The words are a registration's SkillEntry::Words (text::DistinctTerms of its name,
// description, capabilities, tags and scenes, analysed in the owner's language): the very words
// TextQuery matches. Candidates(terms) gives every registration whose words may match `terms`
// as text::QueryTerms::AllMatched reads them — for one term, those holding the term itself, one
// of its alternatives, or (the last term) a word the term begins — taking the term whose
// postings are fewest. It is a superset: the caller still matches each candidate, so a search
// through the postings answers exactly what a walk over every registration answers.
//
// Like RegistrationIndex, it owns no entries: each registration is filed by the slot its owner
// keeps its current entry in. The owner adds a registration with its words and removes it with
// the same words (a new version whose text is the same needs nothing here). Each posting is a
// vector of slots sorted by address: one pointer per (word, registration), a binary search to
// add or remove. Its size is bounded by the owner's (RegistryConfig::registrations_max times the
// words of one record, which kademlia::store::kRecordEncodedSizeMax bounds); the work of one
// search by `prefix_words_read_max`: a last term that begins more words than that is not used
// to narrow the candidates (another term is, or none: the caller walks every registration).
//
// Owned by the Registry's RegistryLookup (registry_lookup.h). No I/O. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_REGISTRY_WORD_POSTINGS_H_
#define SKILLNODE_DISCOVERY_REGISTRY_WORD_POSTINGS_H_

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/skill_entry.h"
#include "discovery/text/query_terms.h"

namespace skillnode::discovery {

class WordPostings {
 public:
  // Where a registration's current entry is kept (RegistrationIndex::Slot).
  using Slot = const SkillEntryPtr*;

  // Words a last term may begin and still narrow a search: reading each one's postings costs
  // a map step, and a one-letter prefix begins a good part of the vocabulary.
  static constexpr size_t kPrefixWordsReadMaxDefault = 512;

  explicit WordPostings(size_t prefix_words_read_max = kPrefixWordsReadMaxDefault);
  WordPostings(const WordPostings&) = delete;
  WordPostings& operator=(const WordPostings&) = delete;

  // Files `slot` under each of `words` (distinct). It must not be filed already.
  void Add(Slot slot, std::span<const std::string> words);
  // Unfiles `slot` from each of `words`: those it was added with.
  void Remove(Slot slot, std::span<const std::string> words);

  // The slots whose words may match `terms` (see above), sorted by address and distinct; every
  // slot whose words match is among them. nullopt when no term narrows them: `terms` is empty,
  // or its only term begins more than prefix_words_read_max words.
  std::optional<std::vector<Slot>> Candidates(const text::QueryTerms& terms) const;

  // Distinct words filed, and (word, slot) pairs filed.
  size_t words() const { return postings_.size(); }
  size_t postings() const { return postings_count_; }

 private:
  using Postings = std::map<std::string, std::vector<Slot>, std::less<>>;

  // The postings term `i` of `terms` reads: its own, its alternatives', and for the last term
  // every word it begins; nullopt when that is more than prefix_words_read_max words.
  std::optional<std::vector<const std::vector<Slot>*>> ListsOf(const text::QueryTerms& terms,
                                                               size_t i) const;

  size_t prefix_words_read_max_;
  Postings postings_;
  size_t postings_count_ = 0;
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_REGISTRY_WORD_POSTINGS_H_
