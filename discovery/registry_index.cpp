// The Registry's indexes and queries (discovery/registry.h): registrations by capability,
// scene, skill id and index id, and the searches they answer. Registering, health and
// publishing are in registry.cpp.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "discovery/registry.h"

namespace skillnode::discovery {

using kademlia::store::SkillRecord;

const SkillRecord* Registry::FindByIndexId(std::string_view id) const {
  auto it = by_index_id_.find(id);
  return it == by_index_id_.end() ? nullptr : &it->second->record();
}

void Registry::AddToIndexes(const Registration& registration) {
  const SkillRecord& record = registration.record();
  by_index_id_[IndexId(record)] = &registration;
  for (const std::string& c : record.capabilities) by_capability_[c].push_back(&registration);
  for (const std::string& s : record.scenes) by_scene_[s].push_back(&registration);
  by_skill_[record.skill_id].push_back(&registration);
}

void Registry::RemoveFromIndexes(const Registration& registration) {
  auto drop = [&registration](Index& index, const std::string& name) {
    auto it = index.find(name);
    if (it == index.end()) return;
    std::erase(it->second, &registration);
    if (it->second.empty()) index.erase(it);
  };
  const SkillRecord& record = registration.record();
  if (auto it = by_index_id_.find(IndexId(record));
      it != by_index_id_.end() && it->second == &registration) {
    by_index_id_.erase(it);
  }
  for (const std::string& c : record.capabilities) drop(by_capability_, c);
  for (const std::string& s : record.scenes) drop(by_scene_, s);
  drop(by_skill_, record.skill_id);
}

template <typename Visit>
void Registry::ForEachMatch(const SkillQuery& query, Visit visit) const {
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
  }
  if (index != nullptr) {
    auto it = index->find(name);
    if (it == index->end()) return;
    // A query of one capability, scene or skill id alone is answered by its index entry.
    const bool exact =
        query.capabilities.size() + query.scenes.size() + (query.skill_id ? 1 : 0) == 1 &&
        query.types.empty() && query.capability_types.empty() && query.keywords.empty() &&
        !query.version && !query.agent_id && !query.status;
    for (const Registration* registration : it->second) {
      if (exact || Matches(query, registration->record())) visit(*registration);
    }
    return;
  }
  for (const auto& [id, registration] : registrations_) {
    if (Matches(query, registration.record())) visit(registration);
  }
}

std::vector<SkillRecord> Registry::Find(const SkillQuery& query) const {
  std::vector<SkillRecord> out;
  ForEachMatch(query, [&out](const Registration& r) { out.push_back(r.record()); });
  return out;
}

std::vector<SkillEntryPtr> Registry::FindEntries(const SkillQuery& query) const {
  std::vector<SkillEntryPtr> out;
  ForEachMatch(query, [&out](const Registration& r) { out.push_back(r.entry); });
  return out;
}

std::vector<SkillRecord> Registry::Records() const {
  std::vector<SkillRecord> out;
  out.reserve(registrations_.size());
  for (const auto& [id, registration] : registrations_) out.push_back(registration.record());
  return out;
}

std::array<size_t, 4> Registry::CountByStatus() const {
  std::array<size_t, 4> counts{};
  for (const auto& [id, registration] : registrations_) {
    ++counts[static_cast<size_t>(registration.record().status)];
  }
  return counts;
}

}  // namespace skillnode::discovery
