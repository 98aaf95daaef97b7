// LanDiscovery on its own, over a one-node DHT's registry and a LAN table: the answers to
// SKILL_DISCOVER (what goes in, how it is split) and the search's rounds (what the
// SKILL_DISCOVER asks, which responses are kept, when the callback runs, the rounds limit).
// The agent's use of it on a fake LAN is tested in lan_agent_test.cpp. The fixture, a registry
// on a one-node DHT with a LAN table, is lan_fixture.h's DiscoveryDesk.
#include "discovery/lan/lan_discovery.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lan_fixture.h"
#include "support/records.h"

namespace skillnode::discovery::lan {
namespace {

using kademlia::store::SkillRecord;
using lan_test::DiscoveryDesk;
using lan_test::kRequester;

Discover Asking(const std::string& capability) {
  Discover discover;
  discover.requester_id = "agent-002";
  discover.capability_filter = capability;
  discover.timestamp_ms = 1;
  return discover;
}

std::vector<std::string> SkillIds(const std::vector<DiscoverResponse>& responses) {
  std::vector<std::string> ids;
  for (const DiscoverResponse& response : responses) {
    for (const DiscoveredSkill& skill : response.skills) ids.push_back(skill.skill_id);
  }
  return ids;
}

DiscoveredSkill Skill(const std::string& id, std::vector<std::string> capabilities) {
  return DiscoveredSkill{
      id, "1.0.0", "10.0.0.5:80" + id.substr(id.size() - 1), capabilities, {"auth"}};
}

TEST_CASE(
    "a SKILL_DISCOVER is answered from the registrations, then the LAN table, never "
    "with a private skill",
    "[unit]") {
  DiscoveryDesk f;
  f.Register(testing::SampleRecord("agent-001", "shown"));
  SkillRecord hidden = testing::SampleRecord("agent-001", "hidden");
  hidden.descriptor = kademlia::store::SkillDescriptor{};
  hidden.descriptor->access = "private";
  f.Register(hidden);
  f.Hear("heard");

  const std::vector<DiscoverResponse> answer = f.discovery->Answer(Asking("user-auth"), 4242);
  REQUIRE(answer.size() == 1);
  CHECK(answer[0].requester_id == "agent-002");
  CHECK(answer[0].timestamp_ms == 4242);
  CHECK(SkillIds(answer) == std::vector<std::string>{"shown", "heard"});
  CHECK(answer[0].skills[0].capabilities == std::vector<std::string>{"org-data-read", "user-auth"});
  CHECK(f.discovery->stats().answered == 1);
}

TEST_CASE("a SKILL_DISCOVER that matches no skill is not answered", "[unit]") {
  DiscoveryDesk f;
  f.Register(testing::SampleRecord("agent-001", "shown"));
  CHECK(f.discovery->Answer(Asking("no-such-capability"), 1).empty());
  Discover of_type = Asking("");
  of_type.type_filter = "tool-skill";  // the sample is an enterprise-skill
  CHECK(f.discovery->Answer(of_type, 1).empty());
  Discover of_scene = Asking("");
  of_scene.scene_filter = "payments";
  CHECK(f.discovery->Answer(of_scene, 1).empty());
  CHECK(f.discovery->stats().answered == 0);
  CHECK(f.discovery->Answer(Asking(""), 1).size() == 1);  // no filter: any skill
}

TEST_CASE("a long answer is split into datagrams that fit, in whole skills, up to its limit",
          "[unit]") {
  LanDiscoveryConfig config;
  config.answer_skills_max = 30;
  DiscoveryDesk f(config);
  for (int i = 0; i < 40; ++i) {
    SkillRecord r = testing::SampleRecord("agent-001", "skill-" + std::to_string(i));
    r.endpoint = "http://10.0.0.1:8080/skills/a-rather-long-path-for-skill-" + std::to_string(i);
    f.Register(r);
  }
  f.Hear("heard");  // past the limit already: left out

  const std::vector<DiscoverResponse> answer = f.discovery->Answer(Asking("org-data-read"), 1);
  REQUIRE(answer.size() > 1);
  for (const DiscoverResponse& response : answer) {
    CHECK_FALSE(response.skills.empty());
    REQUIRE(Validate(response));
    // Room is left for the signature the agent adds.
    CHECK(Encode(response).size() + 100 <= kLanSendMax);
    auto parsed = Parse(Encode(response));
    REQUIRE(parsed);
    CHECK(std::get<DiscoverResponse>(*parsed).skills == response.skills);
  }
  const std::vector<std::string> ids = SkillIds(answer);
  CHECK(ids.size() == 30);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == 30);
  CHECK(std::find(ids.begin(), ids.end(), "heard") == ids.end());
}

TEST_CASE(
    "a round asks with the first capability and scene and keeps what matches the whole "
    "query",
    "[unit]") {
  DiscoveryDesk f;
  SkillQuery query;
  query.capabilities = {"org-data-read", "user-auth"};
  query.scenes = {"auth"};
  query.types = {"enterprise-skill"};
  const transport::TimePoint start = f.net.now();
  const std::optional<Discover> discover = f.StartRound(query, 777);
  REQUIRE(discover.has_value());
  CHECK(discover->requester_id == kRequester);
  CHECK(discover->capability_filter == "org-data-read");
  CHECK(discover->scene_filter == "auth");
  CHECK(discover->type_filter == "enterprise-skill");
  CHECK(discover->timestamp_ms == 777);
  CHECK(f.discovery->NextDeadline() == start + transport::Millis(300));

  const DiscoverResponse response = DiscoveryDesk::Response(
      kRequester,
      {Skill("both-1", {"org-data-read", "user-auth"}), Skill("one-2", {"org-data-read"})}, 999);
  CHECK(f.discovery->OnResponse(response));
  CHECK(f.discovery->OnResponse(response));  // heard twice (two nodes): kept once

  f.discovery->FinishDue(start + transport::Millis(299));
  CHECK(f.rounds_finished == 0);
  f.discovery->FinishDue(start + transport::Millis(300));
  REQUIRE(f.rounds_finished == 1);
  REQUIRE(f.heard->size() == 1);
  CHECK((*f.heard)[0].skill_id == "both-1");
  CHECK((*f.heard)[0].skill_type == "enterprise-skill");  // the responder filtered by it
  CHECK((*f.heard)[0].timestamp_ms == 999);
  CHECK(f.discovery->rounds_waiting() == 0);
  CHECK(f.discovery->NextDeadline() == transport::kTimeNever);
  f.discovery->FinishDue(start + transport::Seconds(10));
  CHECK(f.rounds_finished == 1);
}

TEST_CASE("a response for another requester is not taken into the rounds", "[unit]") {
  DiscoveryDesk f;
  REQUIRE(f.StartRound(SkillQuery{}));
  CHECK_FALSE(f.discovery->OnResponse(
      DiscoveryDesk::Response("skillnode-someone-else", {Skill("any-1", {"org-data-read"})})));
  f.discovery->FinishDue(f.net.now() + transport::Millis(300));
  REQUIRE(f.heard.has_value());
  CHECK(f.heard->empty());
}

TEST_CASE("rounds past discovers_max are refused until one finishes, even from its callback",
          "[unit]") {
  LanDiscoveryConfig config;
  config.discovers_max = 2;
  config.discover_window = transport::Millis(100);
  DiscoveryDesk f(config);
  const transport::TimePoint start = f.net.now();
  SkillQuery query;
  int finished = 0;
  std::optional<Discover> from_callback;
  REQUIRE(f.discovery->StartRound(start, query, 1, [&](transport::TimePoint now, auto) {
    ++finished;
    // A round started from a callback: the finished round no longer counts.
    from_callback =
        f.discovery->StartRound(now, query, 2, [&](transport::TimePoint, auto) { ++finished; });
  }));
  REQUIRE(f.discovery->StartRound(start + transport::Millis(50), query, 1,
                                  [&](transport::TimePoint, auto) { ++finished; }));
  CHECK_FALSE(f.discovery->StartRound(start, query, 1, [&](transport::TimePoint, auto) {}));
  CHECK(f.discovery->stats().rounds_started == 2);
  CHECK(f.discovery->rounds_waiting() == 2);

  f.discovery->FinishDue(start + transport::Millis(100));
  CHECK(finished == 1);
  CHECK(from_callback.has_value());
  CHECK(f.discovery->rounds_waiting() == 2);
  CHECK(f.discovery->NextDeadline() == start + transport::Millis(150));
  f.discovery->FinishDue(start + transport::Millis(200));
  CHECK(finished == 3);
  CHECK(f.discovery->stats().rounds_started == 3);
}

}  // namespace
}  // namespace skillnode::discovery::lan
