// VocabularyFeed: the vocabulary, fed once per record version.
#include "discovery/search/vocabulary_feed.h"

namespace skillnode::discovery::search {

VocabularyFeed::VocabularyFeed(size_t terms_max, size_t records_max)
    : vocabulary_(terms_max), records_max_(records_max) {}

bool VocabularyFeed::Noted(const kademlia::store::SkillRecord& record) const {
  return noted_.contains(Version{kademlia::store::IdentityOf(record), record.sequence});
}

void VocabularyFeed::NoteRecord(const kademlia::store::SkillRecord& record,
                                const std::vector<std::string>& distinct_terms) {
  Version version{kademlia::store::IdentityOf(record), record.sequence};
  if (noted_.contains(version)) return;
  if (noted_.size() >= records_max_) noted_.clear();
  noted_.insert(std::move(version));
  for (const std::string& term : distinct_terms) vocabulary_.Note(term);
}

void VocabularyFeed::NoteIndexed(std::string_view term) { vocabulary_.Note(term); }

}  // namespace skillnode::discovery::search
