// The /api/skills routes' readers and answers (node/skill_routes.h): a page's limit, offset and
// stage switches from the query and from the search body, a heartbeat's body, an
// unregistration's query, a page of skills and a skill with its providers.
#include "node/skill_routes.h"

#include <catch2/catch.hpp>
#include <string>

#include "discovery/skill_entry.h"
#include "route_requests.h"
#include "support/records.h"

namespace skillnode::node {
namespace {

using discovery::Source;
using discovery::search::Found;
using discovery::search::SearchResult;
using nlohmann::json;
using testing::WithQuery;

Found FoundBy(const kademlia::store::SkillRecord& record, Source source) {
  return Found{discovery::SkillEntry::Make(record), source};
}

SearchResult ThreeSkills() {
  SearchResult result;
  result.skills = {FoundBy(testing::SampleRecord("a1"), Source::kLocal),
                   FoundBy(testing::SampleRecord("a2"), Source::kDht),
                   FoundBy(testing::SampleRecord("a3"), Source::kDht)};
  result.stages = {discovery::search::StageReport{"local", "found", 1, 0, "", ""}};
  return result;
}

TEST_CASE("a list page defaults to the first 100 skills through every stage", "[unit]") {
  auto page = PageFromParams(WithQuery(""));
  REQUIRE(page);
  CHECK(page->limit == kPageLimitDefault);
  CHECK(page->offset == 0);
  CHECK(page->options.use_cache);
  CHECK(page->options.use_lan);
  CHECK(page->options.use_skillcenter);
}

TEST_CASE("a list page reads limit and offset, and fresh, lan and skillcenter switch stages",
          "[unit]") {
  auto page =
      PageFromParams(WithQuery("limit=1000&offset=20&fresh=true&lan=false&skillcenter=false"));
  REQUIRE(page);
  CHECK(page->limit == kPageLimitMax);
  CHECK(page->offset == 20);
  CHECK_FALSE(page->options.use_cache);
  CHECK_FALSE(page->options.use_lan);
  CHECK_FALSE(page->options.use_skillcenter);
  // Only the exact words switch: anything else keeps the default.
  auto loose = PageFromParams(WithQuery("fresh=yes&lan=0&skillcenter=no"));
  REQUIRE(loose);
  CHECK(loose->options.use_cache);
  CHECK(loose->options.use_lan);
  CHECK(loose->options.use_skillcenter);
}

TEST_CASE("a list page refuses a limit past its maximum or an offset that is not a number",
          "[unit]") {
  auto big = PageFromParams(WithQuery("limit=1001"));
  REQUIRE_FALSE(big);
  CHECK(big.error().field == "limit");
  CHECK(big.error().message == "'1001' is not an integer from 0 to 1000");
  auto negative = PageFromParams(WithQuery("offset=-1"));
  REQUIRE_FALSE(negative);
  CHECK(negative.error().field == "offset");
  auto trailing = PageFromParams(WithQuery("limit=5x"));
  REQUIRE_FALSE(trailing);
  CHECK(trailing.error().field == "limit");
}

TEST_CASE("a search body reads limit, offset and the stage switches, each optional", "[unit]") {
  auto none = PageFromJson(json::object());
  REQUIRE(none);
  CHECK(none->limit == kPageLimitDefault);
  CHECK(none->offset == 0);
  CHECK(none->options.use_cache);
  // As parsed from a body: a non-negative number is unsigned.
  auto all = PageFromJson(json::parse(
      R"({"limit": 5, "offset": 10, "fresh": true, "lan": false, "skillcenter": false})"));
  REQUIRE(all);
  CHECK(all->limit == 5);
  CHECK(all->offset == 10);
  CHECK_FALSE(all->options.use_cache);
  CHECK_FALSE(all->options.use_lan);
  CHECK_FALSE(all->options.use_skillcenter);
  auto kept = PageFromJson({{"fresh", false}, {"lan", true}});
  REQUIRE(kept);
  CHECK(kept->options.use_cache);
  CHECK(kept->options.use_lan);
}

TEST_CASE(
    "a search body refuses a limit that is negative or too large and a switch that is not "
    "a boolean",
    "[unit]") {
  auto negative = PageFromJson({{"limit", -1}});
  REQUIRE_FALSE(negative);
  CHECK(negative.error().field == "limit");
  CHECK(negative.error().message == "must be an integer from 0 to 1000");
  auto big = PageFromJson(json::parse(R"({"limit": 1001})"));
  REQUIRE_FALSE(big);
  CHECK(big.error().field == "limit");
  auto text = PageFromJson({{"offset", "3"}});
  REQUIRE_FALSE(text);
  CHECK(text.error().field == "offset");
  auto word = PageFromJson({{"lan", "false"}});
  REQUIRE_FALSE(word);
  CHECK(word.error().field == "lan");
  CHECK(word.error().message == "must be true or false");
}

TEST_CASE("a heartbeat needs its agentId, takes a status, and refuses unknown fields", "[unit]") {
  auto plain = HeartbeatFromJson({{"agentId", "a1"}, {"timestamp", 5}});
  REQUIRE(plain);
  CHECK(plain->agent_id == "a1");
  CHECK(plain->status == kademlia::store::SkillStatus::kHealthy);
  auto degraded = HeartbeatFromJson({{"agentId", "a1"}, {"status", "DEGRADED"}});
  REQUIRE(degraded);
  CHECK(degraded->status == kademlia::store::SkillStatus::kDegraded);
  auto null_status = HeartbeatFromJson({{"agentId", "a1"}, {"status", nullptr}});
  REQUIRE(null_status);
  CHECK(null_status->status == kademlia::store::SkillStatus::kHealthy);

  auto missing = HeartbeatFromJson(json::object());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().field == "agentId");
  CHECK(missing.error().message == "is required (a string)");
  auto empty = HeartbeatFromJson({{"agentId", ""}});
  REQUIRE_FALSE(empty);
  CHECK(empty.error().field == "agentId");
  auto unknown = HeartbeatFromJson({{"agentId", "a1"}, {"health", "ok"}});
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().field == "health");
  CHECK(unknown.error().message == "is not a known field");
  auto number = HeartbeatFromJson({{"agentId", "a1"}, {"status", 3}});
  REQUIRE_FALSE(number);
  CHECK(number.error().field == "status");
  CHECK(number.error().message == "must be a string");
  auto bad = HeartbeatFromJson({{"agentId", "a1"}, {"status", "FINE"}});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().field == "status");
}

TEST_CASE("an unregistration needs agentId and reads its reason, SHUTDOWN by default", "[unit]") {
  auto plain = UnregisterFromParams(WithQuery("agentId=a1"));
  REQUIRE(plain);
  CHECK(plain->agent_id == "a1");
  CHECK(plain->reason == kademlia::store::UnregisterReason::kShutdown);
  auto maintenance = UnregisterFromParams(WithQuery("agentId=a1&reason=MAINTENANCE"));
  REQUIRE(maintenance);
  CHECK(maintenance->reason == kademlia::store::UnregisterReason::kMaintenance);
  auto missing = UnregisterFromParams(WithQuery("agentId="));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().field == "agentId");
  CHECK(missing.error().message == "query parameter is required");
  auto bad = UnregisterFromParams(WithQuery("agentId=a1&reason=BORED"));
  REQUIRE_FALSE(bad);
  CHECK(bad.error().field == "reason");
}

TEST_CASE("a page holds the skills from offset up to limit, the sources, stages and total",
          "[unit]") {
  const SearchResult result = ThreeSkills();
  const std::string text = PageJson(result, 1, 1, true);
  CHECK(text.starts_with(R"({"limit":1,"offset":1,"skills":[)"));
  const json page = json::parse(text);
  REQUIRE(page["skills"].size() == 1);
  CHECK(page["skills"][0] == discovery::SkillJson(result.skills[1].record(), Source::kDht));
  CHECK(page["sources"] == json::array({"dht", "local"}));
  CHECK(page["stages"].size() == 1);
  CHECK(page["total"] == 3);
  // The text is what dump() of the same object gives (sorted keys, no spaces).
  CHECK(text == page.dump());

  const json search = json::parse(PageJson(result, 0, kPageLimitDefault, false));
  CHECK_FALSE(search.contains("limit"));
  CHECK_FALSE(search.contains("offset"));
  CHECK(search["skills"].size() == 3);
  CHECK(json::parse(PageJson(result, 5, 10, true))["skills"].empty());
}

TEST_CASE("a skill's answer is the best one found with every provider and their sources",
          "[unit]") {
  const json skill = SkillWithProviders("skill-org-feishu", ThreeSkills());
  CHECK(skill["id"] == "skill-org-feishu");
  CHECK(skill["agentId"] == "a1");
  CHECK(skill["providers"].size() == 3);
  CHECK(skill["providers"][2]["agentId"] == "a3");
  CHECK(skill["sources"] == json::array({"dht", "local"}));
}

TEST_CASE("a skill whose record claims publisher domains shows them with their states", "[unit]") {
  kademlia::store::SkillRecord claiming = testing::SampleRecord("a2");
  claiming.publisher_domains = {"pub.example"};
  SearchResult result = ThreeSkills();
  result.skills[1] = FoundBy(claiming, Source::kDht);
  const DomainClaimsOf claims = [](const kademlia::store::SkillRecord& record) {
    return json::array({{{"domain", record.publisher_domains.front()}, {"state", "checking"}}});
  };
  const json page = json::parse(PageJson(result, 0, 10, false, claims));
  const json expected = json::array({{{"domain", "pub.example"}, {"state", "checking"}}});
  CHECK_FALSE(page["skills"][0].contains("publisherDomains"));  // claims none
  CHECK(page["skills"][1]["publisherDomains"] == expected);
  CHECK(page["skills"][1]["agentId"] == "a2");  // the rest of the skill as before
  // Without the node's claims nothing is added.
  CHECK_FALSE(
      json::parse(PageJson(result, 0, 10, false))["skills"][1].contains("publisherDomains"));
  const json skill = SkillWithProviders("skill-org-feishu", result, claims);
  CHECK_FALSE(skill.contains("publisherDomains"));  // the best provider claims none
  CHECK(skill["providers"][1]["publisherDomains"] == expected);
}

}  // namespace
}  // namespace skillnode::node
