// The term pointers the term pointer tests start from (term_pointer_test.cpp,
// term_pointer_limits_test.cpp): the first version's sample, whose bytes are pinned, the same with
// this version's term profile, and its tombstone.
#ifndef SKILLNODE_TESTS_KADEMLIA_STORE_RECORD_TERM_POINTER_SAMPLES_H_
#define SKILLNODE_TESTS_KADEMLIA_STORE_RECORD_TERM_POINTER_SAMPLES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/store/record/term_pointer.h"
#include "transport/result.h"

namespace skillnode::kademlia::store::term_pointer_samples {

inline TermPointer SamplePointer(const std::string& term = "calendar") {
  TermPointer p;
  p.term = term;
  p.skill_id = "skill-org-feishu";
  p.agent_id = "agent-001";
  p.record_key = SkillKey(p.skill_id);
  p.name = "Feishu Calendar";
  p.description = "Reads and books meetings in Feishu calendars.";
  p.weight_centi = 450;  // 4.5: the name (3) and a scene (1.5)
  p.timestamp_ms = 1707868800000;
  p.sequence = 7;
  p.ttl_seconds = 3600;
  return p;
}

// A pointer as this version's publisher makes it: with the profile of its record's terms.
inline TermPointer SampleProfiled(const std::string& term = "calendar") {
  TermPointer p = SamplePointer(term);
  const std::vector<std::pair<std::string_view, uint32_t>> terms = {
      {"calendar", 450}, {"feishu", 300}, {"meeting", 80}, {"book", 60}};
  p.terms = TermProfile::Of(terms);
  return p;
}

inline TermPointer SampleTombstone() {
  TermPointer p = SamplePointer();
  p.tombstone = true;
  p.name.clear();
  p.description.clear();
  p.weight_centi = 0;
  p.sequence = 8;
  return p;
}

// Makes `p` a valid tombstone.
inline void Bury(TermPointer& p) {
  p.tombstone = true;
  p.name.clear();
  p.description.clear();
  p.weight_centi = 0;
  p.terms = {};
}

// The field an error names: the text before its first ':'.
inline std::string FieldOf(const transport::Error& error) {
  return error.message.substr(0, error.message.find(':'));
}

}  // namespace skillnode::kademlia::store::term_pointer_samples

#endif  // SKILLNODE_TESTS_KADEMLIA_STORE_RECORD_TERM_POINTER_SAMPLES_H_
