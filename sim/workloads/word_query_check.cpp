// QueryFetches and WordQueryCheck (word_query_check.h).
#include "sim/workloads/word_query_check.h"

#include <algorithm>
#include <cassert>

#include "sim/workloads/word_results.h"
#include "sim/workloads/word_workload.h"

namespace skillnode::sim::workloads {
namespace {

bool Holds(const std::vector<size_t>& skills, size_t skill) {
  return std::find(skills.begin(), skills.end(), skill) != skills.end();
}

}  // namespace

QueryFetches QueryFetches::Of(const discovery::search::WordAnswer& answer) {
  QueryFetches fetches;
  for (const discovery::search::ScoredEntry& hit : answer.hits) {
    const auto skill = SkillIndexOf(hit.entry->record().skill_id);
    if (!skill) continue;
    fetches.fetched.push_back(*skill);
    if (fetches.found.size() < kWordRecallDepth && !Holds(fetches.found, *skill)) {
      fetches.found.push_back(*skill);
    }
  }
  for (const kademlia::store::RecordIdentity& identity : answer.dropped) {
    if (const auto skill = SkillIndexOf(identity.skill_id)) fetches.dropped.push_back(*skill);
  }
  for (const kademlia::store::RecordIdentity& identity : answer.passed_over) {
    if (const auto skill = SkillIndexOf(identity.skill_id)) fetches.passed_over.push_back(*skill);
  }
  return fetches;
}

WordQueryCheck WordQueryCheck::Of(const OracleAnswer& truth, const QueryFetches& fetches) {
  WordQueryCheck check;
  if (truth.top.empty()) return check;
  check.hits = HitsOf(truth, fetches.found);
  assert(check.hits.hits <= truth.top.size());
  // As many misses as the hits lack: a tied skill found stands for one of the top it missed.
  size_t misses = truth.top.size() - check.hits.hits;
  for (size_t skill : truth.top) {
    if (misses == 0) break;
    if (Holds(fetches.found, skill)) continue;
    --misses;
    if (Holds(fetches.fetched, skill)) {
      check.ranked_out.push_back(skill);
    } else {
      check.not_fetched.push_back(
          NotFetchedSkill{skill, Holds(fetches.dropped, skill), Holds(fetches.passed_over, skill)});
    }
  }
  return check;
}

}  // namespace skillnode::sim::workloads
