// RegistrationIndex (discovery/registry/registration_index.h): the Registry's registrations by
// capability, scene, skill id and index id, and the searches they answer.
#include "discovery/registry/registration_index.h"

#include <algorithm>
#include <cassert>

namespace skillnode::discovery {

using kademlia::store::SkillRecord;

void RegistrationIndex::Add(Slot slot) {
  assert(slot != nullptr && *slot != nullptr);
  const SkillRecord& record = (*slot)->record();
  Slot& holder = by_index_id_[IndexId(record)];
  // The Registry refuses a registration whose index id another one has.
  assert(holder == nullptr || holder == slot);
  holder = slot;
  for (const std::string& c : record.capabilities) by_capability_[c].push_back(slot);
  for (const std::string& s : record.scenes) by_scene_[s].push_back(slot);
  by_skill_[record.skill_id].push_back(slot);
  ++size_;
}

void RegistrationIndex::Remove(Slot slot) {
  assert(slot != nullptr && *slot != nullptr);
  assert(size_ > 0);
  auto drop = [slot](Index& index, const std::string& name) {
    auto it = index.find(name);
    if (it == index.end()) return;
    std::erase(it->second, slot);
    if (it->second.empty()) index.erase(it);
  };
  const SkillRecord& record = (*slot)->record();
  if (auto it = by_index_id_.find(IndexId(record));
      it != by_index_id_.end() && it->second == slot) {
    by_index_id_.erase(it);
  }
  for (const std::string& c : record.capabilities) drop(by_capability_, c);
  for (const std::string& s : record.scenes) drop(by_scene_, s);
  drop(by_skill_, record.skill_id);
  --size_;
}

const SkillRecord* RegistrationIndex::FindByIndexId(std::string_view id) const {
  auto it = by_index_id_.find(id);
  return it == by_index_id_.end() ? nullptr : &(*it->second)->record();
}

RegistrationIndex::Lookup RegistrationIndex::ForEachMatch(const SkillQuery& query,
                                                          const Visit& visit) const {
  const Index* index = nullptr;
  std::string_view name;
  if (!query.capabilities.empty()) {
    index = &by_capability_;
    name = query.capabilities.front();
  } else if (!query.scenes.empty()) {
    index = &by_scene_;
    name = query.scenes.front();
  } else if (query.skill_id) {
    index = &by_skill_;
    name = *query.skill_id;
  } else {
    return Lookup::kNoIndexFits;
  }
  auto it = index->find(name);
  if (it == index->end()) return Lookup::kAnswered;
  // A query of one capability, scene or skill id alone is answered by its index entry.
  const bool exact =
      query.capabilities.size() + query.scenes.size() + (query.skill_id ? 1 : 0) == 1 &&
      query.types.empty() && query.capability_types.empty() && query.keywords.empty() &&
      query.text.empty() && !query.version && !query.agent_id && !query.status;
  for (Slot slot : it->second) {
    if (exact || Matches(query, (*slot)->record())) visit(*slot);
  }
  return Lookup::kAnswered;
}

}  // namespace skillnode::discovery
