// SkillCenterReading: a catalog's answer read for one search: found or none by its live matches,
// cached only with a TTL and a match; a timeout is DISC_001 and a failure or a skip DISC_005,
// with the stage's message.
#include "discovery/search/skillcenter_reading.h"

#include <catch2/catch.hpp>
#include <string>

#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using Center = SearchProgress::Center;
using Outcome = SkillCenterAnswer::Outcome;

kademlia::store::SkillRecord CatalogSkill(const std::string& skill, const std::string& capability) {
  kademlia::store::SkillRecord record = testing::SampleRecord("agent-remote", skill);
  record.capabilities = {capability};
  return record;
}

SkillQuery ForCapability(const std::string& capability) {
  SkillQuery query;
  query.capabilities = {capability};
  return query;
}

TEST_CASE("a catalog answer is found by its live matches only, and cached with a TTL", "[unit]") {
  kademlia::store::SkillRecord gone = CatalogSkill("skill-gone", "translate");
  gone.tombstone = true;
  const SkillCenterAnswer answer{
      Outcome::kFound,
      {CatalogSkill("skill-a", "translate"), CatalogSkill("skill-b", "summarise"), gone},
      ""};
  const SkillCenterReading cached =
      SkillCenterReading::Of(ForCapability("translate"), answer, true);
  CHECK(cached.state == Center::kAnswered);
  CHECK(cached.outcome == "found");
  CHECK(cached.live == 1);
  CHECK(cached.code.empty());
  REQUIRE(cached.to_cache.size() == 1);
  CHECK(cached.to_cache[0]->record().skill_id == "skill-a");
  const SkillCenterReading uncached =
      SkillCenterReading::Of(ForCapability("translate"), answer, false);
  CHECK(uncached.live == 1);
  CHECK(uncached.to_cache.empty());
}

TEST_CASE("a catalog answer with no live match is none and caches nothing", "[unit]") {
  const SkillCenterAnswer answer{Outcome::kFound, {CatalogSkill("skill-b", "summarise")}, ""};
  const SkillCenterReading reading =
      SkillCenterReading::Of(ForCapability("translate"), answer, true);
  CHECK(reading.state == Center::kAnswered);
  CHECK(reading.outcome == "none");
  CHECK(reading.live == 0);
  CHECK(reading.to_cache.empty());
}

TEST_CASE("a catalog timeout is DISC_001 and a failure or a skip DISC_005", "[unit]") {
  const SkillQuery query = ForCapability("translate");
  const SkillCenterReading timeout =
      SkillCenterReading::Of(query, {Outcome::kTimeout, {}, "no answer within 300 ms"}, true);
  CHECK(timeout.state == Center::kTimedOut);
  CHECK(timeout.outcome == "timeout");
  CHECK(timeout.code == "DISC_001");
  CHECK(timeout.message == "no answer within 300 ms");
  const SkillCenterReading failed =
      SkillCenterReading::Of(query, {Outcome::kFailed, {}, "HTTP 503"}, true);
  CHECK(failed.state == Center::kFailed);
  CHECK(failed.outcome == "failed");
  CHECK(failed.code == "DISC_005");
  CHECK(failed.message == "HTTP 503");
  const SkillCenterReading skipped =
      SkillCenterReading::Of(query, {Outcome::kSkipped, {}, "circuit open"}, true);
  CHECK(skipped.state == Center::kFailed);
  CHECK(skipped.outcome == "skipped");
  CHECK(skipped.code == "DISC_005");
  CHECK(skipped.live == 0);
  CHECK(skipped.to_cache.empty());
}

}  // namespace
}  // namespace skillnode::discovery::search
