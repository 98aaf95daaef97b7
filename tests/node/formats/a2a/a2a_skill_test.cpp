// Records as A2A AgentSkills (node/formats/a2a/a2a_skill.h): the four required members always there
// and never empty, examples only when the descriptor has some, one skill per index id.
#include "node/formats/a2a/a2a_skill.h"

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::node::formats::a2a {
namespace {

using kademlia::store::SkillRecord;
using nlohmann::json;

SkillRecord Described() {
  SkillRecord r = testing::SampleRecord("agent-x", "upper");
  r.version = "1.2.0";
  kademlia::store::SkillDescriptor d;
  d.name = "Upper";
  d.description = "Upper-cases text";
  d.tags = {"text", "case"};
  d.examples = {"HELLO", "  "};
  r.descriptor = d;
  r.capabilities = {"text", "transform"};
  return r;
}

TEST_CASE("a described skill maps its id, name, description, tags and examples", "[unit]") {
  CHECK(A2aSkillJson(Described()) ==
        json{{"id", "agent-x.upper-v1"},
             {"name", "Upper"},
             {"description", "Upper-cases text"},
             {"tags", {"text", "case", "transform"}},  // tags, then capabilities, each once
             {"examples", {"HELLO"}}});                // the blank example left out
}

TEST_CASE("a record without a descriptor still has a name, a description and tags", "[unit]") {
  SkillRecord bare = testing::SampleRecord("agent-x", "lookup");
  bare.capabilities.clear();
  CHECK(A2aSkillJson(bare) ==
        json{{"id", "agent-x.lookup-v0"},
             {"name", "lookup"},
             {"description", "Skill lookup of agent agent-x, capability type enterprise-skill."},
             {"tags", {"enterprise-skill"}}});
}

TEST_CASE("a blank description, name or tag is replaced, never served empty", "[unit]") {
  SkillRecord r = Described();
  r.descriptor->name = " ";
  r.descriptor->description = "\n";
  r.descriptor->tags = {"", " "};
  r.descriptor->examples.clear();
  r.capabilities.clear();
  r.descriptor->capability_type = "api";
  const json skill = A2aSkillJson(r);
  CHECK(skill["name"] == "upper");
  CHECK(skill["description"] == "Skill upper of agent agent-x, capability type api.");
  CHECK(skill["tags"] == json{"api"});
  CHECK_FALSE(skill.contains("examples"));
}

TEST_CASE("a record with a text that is not UTF-8 is not shown in a card", "[unit]") {
  CHECK(ShowableInCard(Described()));
  CHECK(ShowableInCard(testing::SampleRecord()));
  const std::string bad = "\xC0\xAF";
  for (const auto& spoil : std::vector<std::function<void(SkillRecord&)>>{
           [&](SkillRecord& r) { r.agent_id = bad; },
           [&](SkillRecord& r) { r.endpoint = "http://h/" + bad; },
           [&](SkillRecord& r) { r.capabilities.push_back(bad); },
           [&](SkillRecord& r) { r.descriptor->description = bad; },
           [&](SkillRecord& r) { r.descriptor->tags.push_back(bad); },
           [&](SkillRecord& r) { r.descriptor->examples.push_back(bad); }}) {
    SkillRecord r = Described();
    spoil(r);
    CHECK_FALSE(ShowableInCard(r));
  }
}

TEST_CASE("two copies of one skill make one AgentSkill, the first kept", "[unit]") {
  SkillRecord first = Described();
  SkillRecord copy = Described();
  copy.descriptor->name = "Upper (older copy)";
  SkillRecord other_major = Described();
  other_major.version = "2.0.0";
  const json skills = A2aSkillsJson({first, copy, other_major});
  REQUIRE(skills.size() == 2);
  CHECK(skills[0]["name"] == "Upper");
  CHECK(skills[1]["id"] == "agent-x.upper-v2");
}

}  // namespace
}  // namespace skillnode::node::formats::a2a
