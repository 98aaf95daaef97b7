// The words workload's exhaustive oracle (sim/workloads/word_oracle.h, issue 47) on cases
// checked by hand: every live skill holding all the words, ranked best first, and the skills
// tied with its last place counted as hits for those places (HitsOf).
#include "sim/workloads/word_oracle.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

namespace skillnode::sim {
namespace {

using workloads::WordOracle;

kademlia::store::SkillRecord Skill(const std::string& id, const std::string& name,
                                   const std::string& description) {
  kademlia::store::SkillRecord r;
  r.agent_id = "agent";
  r.skill_id = id;
  r.version = "1.0.0";
  kademlia::store::SkillDescriptor d;
  d.name = name;
  d.description = description;
  r.descriptor = d;
  return r;
}

TEST_CASE("the oracle answers every live skill holding all the words, best first", "[unit]") {
  const WordOracle oracle({
      Skill("s0", "pdf tools", "summarize pdf files quickly"),
      Skill("s1", "calendar sync", "sync your calendar with pdf exports"),
      Skill("s2", "pdf", "pdf reader for pdf and more pdf"),
      Skill("s3", "image resize", "resize images"),
  });
  const auto all = [](size_t) { return true; };
  // "pdf": s2 holds it in its name and thrice in its description, s0 in its name and once,
  // s1 only once in its description (BM25F: the name weighs 3, the description 1).
  workloads::OracleAnswer pdf = oracle.Top("pdf", 10, all);
  CHECK(pdf.top == std::vector<size_t>{2, 0, 1});
  CHECK(pdf.matching == 3);
  REQUIRE(pdf.scores.size() == 3);
  CHECK(pdf.scores[0] > pdf.scores[1]);
  CHECK(pdf.scores[1] > pdf.scores[2]);
  // Every word must be held: only s1 has both; stems match ("syncing" is "sync").
  CHECK(oracle.Top("PDF syncing", 10, all).top == std::vector<size_t>{1});
  // The last word also matches as a prefix, as a query typed so far.
  CHECK(oracle.Top("pdf calen", 10, all).top == std::vector<size_t>{1});
  CHECK(oracle.Top("calen pdf", 10, all).top.empty());
  // Only live skills count, and only n are given.
  CHECK(oracle.Top("pdf", 10, [](size_t s) { return s != 2; }).top == std::vector<size_t>{0, 1});
  const workloads::OracleAnswer two = oracle.Top("pdf", 2, all);
  CHECK(two.top == std::vector<size_t>{2, 0});
  CHECK(two.matching == 3);
  CHECK(oracle.Top("resize", 10, all).top == std::vector<size_t>{3});
  CHECK(oracle.Top("video", 10, all).top.empty());
  CHECK(oracle.Top("the", 10, all).top.empty());  // a stop word: no terms, no word query
}

TEST_CASE("skills scoring as the oracle's last are tied, and count as hits for its places",
          "[unit]") {
  // s0..s3 score alike (the same fields); s4 holds "pdf" in its name too and ranks first.
  const WordOracle oracle({
      Skill("s0", "tool", "pdf files"),
      Skill("s1", "tool", "pdf files"),
      Skill("s2", "tool", "pdf files"),
      Skill("s3", "tool", "pdf files"),
      Skill("s4", "pdf", "pdf files"),
  });
  const workloads::OracleAnswer truth = oracle.Top("pdf", 2, [](size_t) { return true; });
  // The tie-break among equal scores is the skill id: s0 before s1, s2, s3.
  REQUIRE(truth.top == std::vector<size_t>{4, 0});
  CHECK(truth.scores[0] > truth.scores[1]);
  CHECK(truth.tied == std::vector<size_t>{1, 2, 3});
  CHECK(truth.matching == 5);
  const auto hits = [&truth](std::vector<size_t> found) {
    const workloads::OracleHits h = workloads::HitsOf(truth, found);
    return std::pair<size_t, size_t>{h.hits, h.strict};
  };
  CHECK(hits({4, 0}) == std::pair<size_t, size_t>{2, 2});
  CHECK(hits({4, 3}) == std::pair<size_t, size_t>{2, 1});  // another tie-break's top
  // The tied skills have one place between them, and s4's is not theirs to take.
  CHECK(hits({3, 2}) == std::pair<size_t, size_t>{1, 0});
  CHECK(hits({0, 1}) == std::pair<size_t, size_t>{1, 1});
  CHECK(hits({}) == std::pair<size_t, size_t>{0, 0});
  // Without a tie, only the top's own skills count.
  const workloads::OracleAnswer one = oracle.Top("pdf", 1, [](size_t) { return true; });
  CHECK(one.tied.empty());
  CHECK(workloads::HitsOf(one, {0}).hits == 0);
}

}  // namespace
}  // namespace skillnode::sim
