// Test helpers for the keyword index: a valid term pointer to start from (a live pointer of
// skill `skill` under `term`, the fields a test varies as arguments) and its tombstone.
#ifndef SKILLNODE_TESTS_SUPPORT_TERM_POINTERS_H_
#define SKILLNODE_TESTS_SUPPORT_TERM_POINTERS_H_

#include <cstdint>
#include <string>

#include "kademlia/store/record/record_window.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record/term_pointer.h"

namespace skillnode::testing {

inline kademlia::store::TermPointer SampleTermPointer(
    const std::string& skill, uint32_t weight, uint64_t sequence = 1,
    const std::string& term = "calendar",
    const std::string& description = "Books meetings in shared calendars.") {
  kademlia::store::TermPointer p;
  p.term = term;
  p.skill_id = skill;
  p.agent_id = "agent-001";
  p.record_key = kademlia::store::SkillKey(skill);
  p.name = "Calendar " + skill;
  p.description = description;
  p.weight_centi = weight;
  p.timestamp_ms = kademlia::store::kSimulatedEpochMs;
  p.sequence = sequence;
  p.ttl_seconds = 3600;
  return p;
}

// The tombstone that buries `pointer`'s skill at `sequence`: no name, description or weight.
inline kademlia::store::TermPointer TombstoneOf(kademlia::store::TermPointer pointer,
                                                uint64_t sequence) {
  pointer.tombstone = true;
  pointer.name.clear();
  pointer.description.clear();
  pointer.weight_centi = 0;
  pointer.sequence = sequence;
  return pointer;
}

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_TERM_POINTERS_H_
