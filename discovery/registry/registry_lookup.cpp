// RegistryLookup (discovery/registry/registry_lookup.h): the Registry's registrations filed by
// name and by word, and the queries answered through them or through the Registry's walk.
#include "discovery/registry/registry_lookup.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <tuple>
#include <utility>

namespace skillnode::discovery {

using kademlia::store::SkillRecord;

bool RegistryLookup::BySkillThenAgent::operator()(Slot a, Slot b) const {
  const SkillRecord& ra = (*a)->record();
  const SkillRecord& rb = (*b)->record();
  return std::tie(ra.skill_id, ra.agent_id) < std::tie(rb.skill_id, rb.agent_id);
}

RegistryLookup::RegistryLookup(text::Analyzer& analyzer, Walk walk)
    : analyzer_(analyzer), walk_(std::move(walk)) {
  assert(walk_);
}

void RegistryLookup::Index(Slot slot) {
  index_.Add(slot);
  words_.Add(slot, (*slot)->Words(analyzer_));
}

void RegistryLookup::Unindex(Slot slot) {
  index_.Remove(slot);
  // A new version of the same text has the same words (the owner unindexes before a change).
  words_.Remove(slot, (*slot)->Words(analyzer_));
}

const SkillRecord* RegistryLookup::FindByIndexId(std::string_view id) const {
  return index_.FindByIndexId(id);
}

template <typename Visit>
void RegistryLookup::ForEachMatch(const SkillQuery& query, Visit visit) const {
  if (index_.ForEachMatch(query, visit) == RegistrationIndex::Lookup::kAnswered) return;
  [[maybe_unused]] size_t walked = 0;
  walk_([&](Slot slot) {
    ++walked;
    if (Matches(query, (*slot)->record())) visit(*slot);
  });
  assert(walked == index_.size());
}

std::vector<SkillRecord> RegistryLookup::Find(const SkillQuery& query) const {
  std::vector<SkillRecord> out;
  ForEachMatch(query, [&out](const SkillEntryPtr& entry) { out.push_back(entry->record()); });
  return out;
}

std::vector<SkillEntryPtr> RegistryLookup::FindEntries(const SkillQuery& query) const {
  std::vector<SkillEntryPtr> out;
  ForEachMatch(query, [&out](const SkillEntryPtr& entry) { out.push_back(entry); });
  return out;
}

std::vector<SkillEntryPtr> RegistryLookup::FindEntries(const SkillQuery& query,
                                                       const text::QueryTerms& text,
                                                       std::string_view language) const {
  assert(query.text.empty());
  if (!text.empty() && language == analyzer_.language() && !RegistrationIndex::Fits(query)) {
    if (std::optional<std::vector<WordPostings::Slot>> slots = words_.Candidates(text)) {
      // In the walk's order, (skillId, agentId), as a walk finds them.
      std::sort(slots->begin(), slots->end(), BySkillThenAgent{});
      std::vector<SkillEntryPtr> out;
      for (WordPostings::Slot slot : *slots) {
        if (Matches(query, (*slot)->record())) out.push_back(*slot);
      }
      return out;
    }
  }
  return FindEntries(query);
}

}  // namespace skillnode::discovery
