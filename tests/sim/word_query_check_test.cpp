// One word query's answer checked against the oracle (sim/workloads/word_query_check.h): a
// WordSearch answer read as corpus skills, and each oracle skill it missed told apart as ranked
// out, not fetched, dropped as a candidate whose fetch failed, or passed over as one read and
// not fetched; a skill tied with the oracle's last place stands in for that place.
#include "sim/workloads/word_query_check.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "discovery/skill_entry.h"
#include "sim/workloads/word_workload.h"

namespace skillnode::sim::workloads {
namespace {

discovery::search::ScoredEntry Hit(const std::string& skill_id) {
  kademlia::store::SkillRecord record;
  record.agent_id = "agent-0";
  record.skill_id = skill_id;
  record.version = "1.0.0";
  return discovery::search::ScoredEntry{discovery::SkillEntry::Make(std::move(record)), {}};
}

// The oracle's top 2 for a query: skill 4 first, then 0, which 1, 2 and 3 tie with.
OracleAnswer Truth() {
  OracleAnswer truth;
  truth.top = {4, 0};
  truth.scores = {2.0, 1.0};
  truth.tied = {1, 2, 3};
  truth.matching = 5;
  return truth;
}

TEST_CASE("an answer reads as its first ten distinct corpus skills, every hit and the dropped",
          "[unit]") {
  discovery::search::WordAnswer answer;
  for (const char* id : {"w7", "w3", "w7", "skill-x", "w1", "w2", "w9", "w8", "w6", "w5", "w4",
                         "w10", "w11", "w12"}) {
    answer.hits.push_back(Hit(id));
  }
  answer.dropped.push_back(kademlia::store::RecordIdentity{{}, "agent-0", "w20"});
  answer.dropped.push_back(kademlia::store::RecordIdentity{{}, "agent-0", "other"});
  answer.passed_over.push_back(kademlia::store::RecordIdentity{{}, "agent-0", "w30"});
  const QueryFetches fetches = QueryFetches::Of(answer);
  // A record that is not a corpus skill is skipped; a repeated one counts once among the found.
  CHECK(fetches.found == std::vector<size_t>{7, 3, 1, 2, 9, 8, 6, 5, 4, 10});
  CHECK(fetches.fetched == std::vector<size_t>{7, 3, 7, 1, 2, 9, 8, 6, 5, 4, 10, 11, 12});
  CHECK(fetches.dropped == std::vector<size_t>{20});
  CHECK(fetches.passed_over == std::vector<size_t>{30});
  CHECK(QueryFetches::Of(discovery::search::WordAnswer{}).found.empty());
}

TEST_CASE("a query's misses are told apart: ranked out, not fetched, dropped", "[unit]") {
  const OracleAnswer truth = Truth();
  // Both found: nothing missed.
  WordQueryCheck all = WordQueryCheck::Of(truth, QueryFetches{{4, 0}, {4, 0}, {}, {}});
  CHECK(all.hits.hits == 2);
  CHECK(all.hits.strict == 2);
  CHECK(all.ranked_out.empty());
  CHECK(all.not_fetched.empty());
  // A skill tied with the last place takes it: still no miss, though strictly one.
  WordQueryCheck tied = WordQueryCheck::Of(truth, QueryFetches{{4, 3}, {4, 3}, {}, {}});
  CHECK(tied.hits.hits == 2);
  CHECK(tied.hits.strict == 1);
  CHECK(tied.ranked_out.empty());
  CHECK(tied.not_fetched.empty());
  // Fetched but not among the found: ranked out.
  WordQueryCheck ranked = WordQueryCheck::Of(truth, QueryFetches{{4}, {4, 0}, {}, {}});
  CHECK(ranked.hits.hits == 1);
  CHECK(ranked.ranked_out == std::vector<size_t>{0});
  CHECK(ranked.not_fetched.empty());
  // Never answered: not fetched, and dropped when its fetch failed.
  WordQueryCheck none = WordQueryCheck::Of(truth, QueryFetches{{}, {}, {0}, {}});
  CHECK(none.hits.hits == 0);
  CHECK(none.ranked_out.empty());
  CHECK(none.not_fetched == std::vector<NotFetchedSkill>{NotFetchedSkill{4, false, false},
                                                         NotFetchedSkill{0, true, false}});
  // A candidate read and passed over (past the fetch limit) is told apart too.
  WordQueryCheck passed = WordQueryCheck::Of(truth, QueryFetches{{4}, {4}, {}, {0}});
  CHECK(passed.not_fetched == std::vector<NotFetchedSkill>{NotFetchedSkill{0, false, true}});
}

TEST_CASE("an empty oracle answer has no hits and misses nothing", "[unit]") {
  const WordQueryCheck check = WordQueryCheck::Of(OracleAnswer{}, QueryFetches{{1}, {1}, {}, {}});
  CHECK(check.hits.hits == 0);
  CHECK(check.ranked_out.empty());
  CHECK(check.not_fetched.empty());
}

}  // namespace
}  // namespace skillnode::sim::workloads
