// POST /api/scenes/{scene}/join's body and answer (node/api/scene_join.h): the search a body
// asks for, the fields it refuses, and the SceneJoinResult made from what the search found.
#include "node/api/scene_join.h"

#include <catch2/catch.hpp>
#include <string>

#include "discovery/skill_entry.h"
#include "support/records.h"

namespace skillnode::node::api {
namespace {

using discovery::Source;
using discovery::search::Found;
using discovery::search::SearchResult;
using nlohmann::json;

Found FoundBy(const kademlia::store::SkillRecord& record, Source source) {
  return Found{discovery::SkillEntry::Make(record), source};
}

TEST_CASE("a join searches the scene's healthy skills with every requested capability", "[unit]") {
  auto query = SceneJoinQuery(
      "auth", {{"capabilities", {"user-auth", "org-data-read"}}, {"requesterId", "r1"}});
  REQUIRE(query);
  CHECK(query->scenes == std::vector<std::string>{"auth"});
  CHECK(query->capabilities == std::vector<std::string>{"user-auth", "org-data-read"});
  REQUIRE(query->status);
  CHECK(*query->status == kademlia::store::SkillStatus::kHealthy);
  auto empty = SceneJoinQuery("auth", json::object());
  REQUIRE(empty);
  CHECK(empty->capabilities.empty());
}

TEST_CASE("a join body refuses capabilities that are not an array of strings and unknown fields",
          "[unit]") {
  auto text = SceneJoinQuery("auth", {{"capabilities", "user-auth"}});
  REQUIRE_FALSE(text);
  CHECK(text.error().field == "capabilities");
  CHECK(text.error().message == "must be an array of strings");
  auto number = SceneJoinQuery("auth", {{"capabilities", {"user-auth", 7}}});
  REQUIRE_FALSE(number);
  CHECK(number.error().field == "capabilities[1]");
  CHECK(number.error().message == "must be a string");
  auto unknown = SceneJoinQuery("auth", {{"group", "g"}});
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().field == "group");
  CHECK(unknown.error().message == "is not a known field");
}

TEST_CASE("the join result names the first skill found, its connection and every member",
          "[unit]") {
  kademlia::store::SkillRecord chosen = testing::SampleRecord("a1", "s1");
  chosen.endpoint = "https://skills.example:8443/api";
  SearchResult result;
  result.skills = {FoundBy(chosen, Source::kDht),
                   FoundBy(testing::SampleRecord("a2", "s2"), Source::kLocal)};
  const json joined = SceneJoinJson("auth", result);
  CHECK(joined["joined"] == true);
  CHECK(joined["sceneId"] == "auth");
  CHECK(joined["groupId"] == "group-auth");
  CHECK(joined["connectionInfo"] == json{{"protocol", "https"},
                                         {"host", "skills.example"},
                                         {"port", 8443},
                                         {"basePath", "/api"},
                                         {"endpoint", "https://skills.example:8443/api"}});
  const json& skill = joined["skillInfo"];
  CHECK(skill["skillId"] == "s1");
  CHECK(skill["agentId"] == "a1");
  CHECK(skill["version"] == "0.7.0");
  CHECK(skill["capabilities"] == json::array({"org-data-read", "user-auth"}));
  CHECK(skill["status"] == "HEALTHY");
  CHECK(skill["provider"] == kademlia::NodeIdOf(chosen.publisher).ToHex());
  CHECK(joined["members"] ==
        json::array({{{"skillId", "s1"}, {"agentId", "a1"}, {"endpoint", chosen.endpoint}},
                     {{"skillId", "s2"}, {"agentId", "a2"}, {"endpoint", "192.168.1.100:8080"}}}));
  CHECK(joined["source"] == "dht");
}

TEST_CASE("a join result keeps an endpoint it cannot parse as it was registered", "[unit]") {
  kademlia::store::SkillRecord odd = testing::SampleRecord();
  odd.endpoint = "not an endpoint";
  SearchResult result;
  result.skills = {FoundBy(odd, Source::kLocal)};
  CHECK(SceneJoinJson("auth", result)["connectionInfo"] == json{{"endpoint", "not an endpoint"}});
}

}  // namespace
}  // namespace skillnode::node::api
