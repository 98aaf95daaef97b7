// TextRanking (discovery/search/words/text_ranking.h): every word held first, then BM25F times
// health.
#include "discovery/search/words/text_ranking.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;
using kademlia::store::SkillStatus;

SkillEntryPtr Named(const std::string& skill, const std::string& name,
                    SkillStatus status = SkillStatus::kHealthy) {
  SkillRecord r = skillnode::testing::SampleRecord("agent-001", skill);
  r.capabilities = {};
  r.scenes = {};
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->name = name;
  r.status = status;
  return SkillEntry::Make(r);
}

std::vector<std::string> Order(const std::vector<ScoredEntry>& ranked) {
  std::vector<std::string> out;
  for (const ScoredEntry& s : ranked) out.push_back(s.entry->record().skill_id);
  return out;
}

TEST_CASE("the health weights multiply, HEALTHY the most", "[unit]") {
  const HealthWeights weights;
  CHECK(weights.Of(SkillStatus::kHealthy) == 1.0);
  CHECK(weights.Of(SkillStatus::kDegraded) < weights.Of(SkillStatus::kHealthy));
  CHECK(weights.Of(SkillStatus::kMaintenance) < weights.Of(SkillStatus::kDegraded));
  CHECK(weights.Of(SkillStatus::kUnhealthy) < weights.Of(SkillStatus::kMaintenance));
}

TEST_CASE("skills rank by BM25F times health, with hand-computed scores", "[unit]") {
  text::TextMatch match = text::TextMatch::Create("calendar").value();
  const TextRanking ranking;
  std::vector<ScoredEntry> ranked =
      ranking.Rank(match, {Named("long", "Calendar Sync"), Named("short", "Calendar")});
  REQUIRE(Order(ranked) == std::vector<std::string>{"short", "long"});
  const double idf = std::log(1.2);
  CHECK(ranked[0].score.bm25 == Approx(idf * 4 * 2.2 / 5.2));
  CHECK(ranked[1].score.bm25 == Approx(idf * 2.4 * 2.2 / 3.6));
  ranked = ranking.Rank(
      match, {Named("long", "Calendar Sync"), Named("short", "Calendar", SkillStatus::kDegraded)});
  CHECK(Order(ranked) == std::vector<std::string>{"long", "short"});
  CHECK(ranked[1].score.score == Approx(0.7 * idf * 4 * 2.2 / 5.2));
}

TEST_CASE("a skill holding every word ranks before a better-scored one holding fewer", "[unit]") {
  text::TextMatch match = text::TextMatch::Create("feishu calendar").value();
  const std::vector<ScoredEntry> ranked =
      TextRanking().Rank(match, {Named("partial", "Calendar Calendar Calendar"),
                                 Named("full", "Feishu Calendar", SkillStatus::kUnhealthy)});
  CHECK(Order(ranked) == std::vector<std::string>{"full", "partial"});
  CHECK(ranked[0].score.terms_matched == 2);
  CHECK(ranked[1].score.terms_matched == 1);
}

TEST_CASE("a completed last word is scored as the term it completes", "[unit]") {
  text::TextMatch match = text::TextMatch::Create("calen").value();
  const std::vector<ScoredEntry> ranked = TextRanking().Rank(match, {Named("a", "Calendar")});
  CHECK(ranked[0].score.terms_matched == 1);
  CHECK(ranked[0].score.bm25 > 0);
}

TEST_CASE("field weights are configurable", "[unit]") {
  TextRankingConfig config;
  config.bm25.field_weights.name = 0;
  text::TextMatch match = text::TextMatch::Create("calendar").value();
  const std::vector<ScoredEntry> ranked = TextRanking(config).Rank(match, {Named("a", "Calendar")});
  CHECK(ranked[0].score.bm25 == 0);
}

}  // namespace
}  // namespace skillnode::discovery::search
