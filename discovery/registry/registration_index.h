// RegistrationIndex: the local index of the Registry (discovery/registry/registry.h) over its
// registrations by capability, scene, skill id and index id (IndexId), and the searches it
// answers through them without walking every registration.
//
// The index owns no entries: each registration is indexed by the slot in which its owner keeps
// the registration's current entry (the SkillEntryPtr that every new version replaces), so a
// search always sees the current version. The owner keeps each slot where it is from Add to
// Remove (std::map values never move), and removes a registration before a change of what the
// index is keyed by (capabilities, scenes, skill id, agent id or major version) and adds it
// again after; a new version that changes only the status, sequence or signature needs nothing
// here. No two registrations added share an index id (the Registry refuses the second, see
// FindByIndexId). A flat list per name: searches walk it far more often than registrations
// change it. Its size is bounded by the owner's (RegistryConfig::registrations_max).
//
// Owned by the Registry's RegistryLookup (registry_lookup.h). No I/O. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_REGISTRY_REGISTRATION_INDEX_H_
#define SKILLNODE_DISCOVERY_REGISTRY_REGISTRATION_INDEX_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/query.h"
#include "discovery/skill_entry.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery {

class RegistrationIndex {
 public:
  // Where a registration's current entry is kept; the index reads it, never changes it.
  using Slot = const SkillEntryPtr*;
  using Visit = std::function<void(const SkillEntryPtr&)>;
  // How ForEachMatch went: answered through an index, or no index fits the query.
  enum class Lookup { kAnswered, kNoIndexFits };

  RegistrationIndex() = default;
  RegistrationIndex(const RegistrationIndex&) = delete;
  RegistrationIndex& operator=(const RegistrationIndex&) = delete;

  // Indexes the registration whose entry `slot` holds, by its record's fields now.
  void Add(Slot slot);
  // Forgets it; its record's indexed fields must be those it was added with.
  void Remove(Slot slot);

  // The record of the registration whose index id is `id`, or nullptr.
  const kademlia::store::SkillRecord* FindByIndexId(std::string_view id) const;

  // For a query that names a capability, scene or skill id (checked in that order, the first
  // one named): calls visit(entry) for each registration indexed under that name that matches
  // the query, in the order they were added, and returns kAnswered. Otherwise visits nothing
  // and returns kNoIndexFits: the caller walks every registration.
  [[nodiscard]] Lookup ForEachMatch(const SkillQuery& query, const Visit& visit) const;
  // Whether one of the indexes fits `query` (ForEachMatch answers it): it names a capability,
  // a scene or a skill id.
  static bool Fits(const SkillQuery& query) {
    return !query.capabilities.empty() || !query.scenes.empty() || query.skill_id.has_value();
  }

  // Registrations indexed.
  size_t size() const { return size_; }

 private:
  using Index = std::map<std::string, std::vector<Slot>, std::less<>>;

  Index by_capability_;
  Index by_scene_;
  Index by_skill_;
  std::map<std::string, Slot, std::less<>> by_index_id_;
  size_t size_ = 0;
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_REGISTRY_REGISTRATION_INDEX_H_
