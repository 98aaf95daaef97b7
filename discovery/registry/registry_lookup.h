// RegistryLookup: the Registry's lookups over its registrations (discovery/registry/registry.h):
// the indexes they are filed in and the searches answered through them, so that a query finds
// its registrations without the Registry walking each one.
//
// It keeps two indexes of the registrations indexed: a RegistrationIndex (by capability, scene,
// skill id and index id) and a WordPostings (by the words of their text, SkillEntry::Words
// through the Analyzer lent to it). The queries neither index fits walk the registrations in
// (skillId, agentId) order through the walk its owner lends it (the owner keeps them in that
// order already, the Registry in its map). Find and FindEntries give the registrations matching a
// query in the order the index that answers visits them: a name's in the order they were indexed,
// the others in (skillId, agentId) order. FindEntries with a text narrows by the word postings when
// no name index fits and the text is in the Analyzer's language, and answers in (skillId,
// agentId) order as the walk does.
//
// Like the indexes, it owns no entries: each registration is filed by the slot its owner keeps
// its current entry in (std::map values never move), from Index to Unindex, and a search always
// sees the version the slot holds now. The owner unindexes a registration before a change of
// what it is filed by (its capabilities, scenes, major version or text) and indexes it again
// after; a new version that changes only the status, sequence or signature needs nothing here.
// No two registrations indexed share an index id, or a (skillId, agentId): the owner refuses
// the second. Whenever a query runs, the owner's walk visits exactly the registrations indexed
// (asserted). Its size is bounded by the owner's (RegistryConfig::registrations_max).
//
// Owned by the Registry. No I/O. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_REGISTRY_REGISTRY_LOOKUP_H_
#define SKILLNODE_DISCOVERY_REGISTRY_REGISTRY_LOOKUP_H_

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "discovery/query.h"
#include "discovery/registry/registration_index.h"
#include "discovery/registry/word_postings.h"
#include "discovery/skill_entry.h"
#include "discovery/text/analyzer.h"
#include "discovery/text/query_terms.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery {

class RegistryLookup {
 public:
  // Where a registration's current entry is kept (RegistrationIndex::Slot).
  using Slot = RegistrationIndex::Slot;

  // Calls `visit` with the slot of every registration indexed, in their entries' (skillId,
  // agentId) order.
  using Walk = std::function<void(const std::function<void(Slot)>& visit)>;

  // `analyzer` makes the words registrations are filed under; it must outlive this. `walk` is
  // the owner's walk over its registrations.
  RegistryLookup(text::Analyzer& analyzer, Walk walk);
  RegistryLookup(const RegistryLookup&) = delete;
  RegistryLookup& operator=(const RegistryLookup&) = delete;

  // Files the registration whose entry `slot` holds in every index, by its entry now. It must
  // not be indexed already.
  void Index(Slot slot);
  // Unfiles it from every index; its entry must be filed by what it was indexed with.
  void Unindex(Slot slot);

  // The record of the registration whose index id is `id` (IndexId), or nullptr.
  const kademlia::store::SkillRecord* FindByIndexId(std::string_view id) const;
  // The current records of the registrations that match `query`.
  std::vector<kademlia::store::SkillRecord> Find(const SkillQuery& query) const;
  // The same, shared: each registration's current entry.
  std::vector<SkillEntryPtr> FindEntries(const SkillQuery& query) const;
  // Those of FindEntries(query) whose words may hold `text` (analysed in `language`), in the
  // same order: every entry whose words match `text` (text::QueryTerms::AllMatched over
  // SkillEntry::Words) is among them. `query.text` must be empty (the text is `text`).
  std::vector<SkillEntryPtr> FindEntries(const SkillQuery& query, const text::QueryTerms& text,
                                         std::string_view language) const;

  // Registrations indexed.
  size_t size() const { return index_.size(); }

 private:
  // Slots in their entries' (skillId, agentId) order, the walk's.
  struct BySkillThenAgent {
    bool operator()(Slot a, Slot b) const;
  };

  // Calls visit(entry) for each registration matching `query`, through index_ when one of its
  // indexes fits, else in the walk's order.
  template <typename Visit>
  void ForEachMatch(const SkillQuery& query, Visit visit) const;

  text::Analyzer& analyzer_;
  RegistrationIndex index_;
  WordPostings words_;
  Walk walk_;
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_REGISTRY_REGISTRY_LOOKUP_H_
