// WordCandidates (discovery/search/word_candidates.h): the intersection first, then the
// candidates covering most terms, heaviest first.
#include "discovery/search/word_candidates.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "discovery/search/word_fakes.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

kademlia::store::TermPointer Pointer(const std::string& skill, const std::string& term,
                                     double weight) {
  return PointerOf(skillnode::testing::SampleRecord("agent-001", skill), term, weight);
}

TEST_CASE("candidates covering every term come first, then by summed weight", "[unit]") {
  WordCandidates candidates(2);
  const std::vector<kademlia::store::TermPointer> feishu = {
      Pointer("both", "feishu", 1), Pointer("heavy", "feishu", 9), Pointer("both", "feishu", 2)};
  const std::vector<kademlia::store::TermPointer> calendar = {Pointer("both", "calendar", 3),
                                                              Pointer("light", "calendar", 1)};
  candidates.Add(0, feishu);
  candidates.Add(1, calendar);
  const std::vector<WordCandidate> best = candidates.Best(10);
  REQUIRE(best.size() == 3);
  CHECK(best[0].identity.skill_id == "both");
  CHECK(best[0].terms_covered == 2);
  CHECK(best[0].weight_centi == 500);  // its heaviest feishu pointer, 2, and calendar, 3
  CHECK(best[0].record_key == kademlia::store::SkillKey("both"));
  CHECK(best[1].identity.skill_id == "heavy");
  CHECK(best[2].identity.skill_id == "light");
  CHECK(candidates.Best(1).size() == 1);
}

TEST_CASE("a tombstone pointer leads to no candidate", "[unit]") {
  WordCandidates candidates(1);
  kademlia::store::TermPointer dead = Pointer("dead", "feishu", 1);
  dead.tombstone = true;
  dead.weight_centi = 0;
  candidates.Add(0, std::vector<kademlia::store::TermPointer>{dead});
  CHECK(candidates.size() == 0);
}

}  // namespace
}  // namespace skillnode::discovery::search
