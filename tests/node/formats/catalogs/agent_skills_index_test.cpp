// The Agent Skills discovery index (node/formats/catalogs/agent_skills_index.h): the draft's five
// fields, names by the Agent Skills rules, one entry per name, and only records naming a SKILL.md.
#include "node/formats/catalogs/agent_skills_index.h"

#include <catch2/catch.hpp>

#include "tests/node/formats/formats_fixture.h"

namespace skillnode::node::formats::catalogs {
namespace {

using kademlia::store::SkillRecord;
using nlohmann::json;

TEST_CASE("skill names follow the Agent Skills rules", "[unit]") {
  for (const std::string& good :
       {std::string("a"), std::string("pdf-processing"), std::string("x9"), std::string(64, 'a')}) {
    CHECK(IsSkillName(good));
  }
  for (const std::string& bad : {std::string(""), std::string(65, 'a'), std::string("-a"),
                                 std::string("a-"), std::string("a--b"), std::string("A"),
                                 std::string("a_b"), std::string("a.b"), std::string("é")}) {
    INFO(bad);
    CHECK_FALSE(IsSkillName(bad));
  }
}

TEST_CASE("an index entry has the draft's five fields, the SKILL.md URL and its digest", "[unit]") {
  const std::vector<ListedRecord> records = {
      ListedRecord{.record = AgentSkillRecord("agent 1", "pdf-tools", 0x0f)}};
  const json index = SkillIndexJson(records, "http://node.example:7070");
  CHECK(index["$schema"] == "https://schemas.agentskills.io/discovery/0.2.0/schema.json");
  REQUIRE(index["skills"].size() == 1);
  std::string hex;
  for (int i = 0; i < 32; ++i) hex += "0f";
  CHECK(index["skills"][0] ==
        json{{"name", "pdf-tools"},
             {"type", "skill-md"},
             {"description", "What pdf-tools does"},
             {"url", "http://node.example:7070/api/skills/pdf-tools/skill.md?agentId=agent%201"},
             {"digest", "sha256:" + hex}});
}

TEST_CASE("the index lists one live record per name, best ranked, in name order", "[unit]") {
  SkillRecord old_version = AgentSkillRecord("a1", "tool", 0x01);
  old_version.version = "1.0.0";
  SkillRecord new_version = AgentSkillRecord("a2", "tool", 0x02);
  new_version.version = "2.0.0";
  SkillRecord unhealthy = AgentSkillRecord("a3", "tool", 0x03);
  unhealthy.version = "9.0.0";
  unhealthy.status = kademlia::store::SkillStatus::kUnhealthy;
  SkillRecord gone = AgentSkillRecord("a4", "alpha", 0x04);
  gone.tombstone = true;
  SkillRecord no_md = AgentSkillRecord("a5", "beta");
  no_md.descriptor->skill_md_sha256.reset();
  SkillRecord no_description = AgentSkillRecord("a6", "gamma");
  no_description.descriptor->description.clear();
  // A descriptor name that is no skill name falls back to the skill id; neither: left out.
  SkillRecord titled = AgentSkillRecord("a7", "delta");
  titled.descriptor->name = "Delta Tool";
  SkillRecord unnamed = AgentSkillRecord("a8", "Epsilon");
  unnamed.descriptor->name = "Epsilon Tool";
  std::vector<ListedRecord> records;
  for (const SkillRecord& r :
       {old_version, unhealthy, new_version, gone, no_md, no_description, titled, unnamed}) {
    records.push_back(ListedRecord{.record = r});
  }
  const auto indexed = IndexedSkills(records);
  REQUIRE(indexed.size() == 2);
  CHECK(SkillNameOf(indexed[0]->record) == "delta");
  CHECK(indexed[1]->record.agent_id == "a2");
  const json index = SkillIndexJson(records, "http://h");
  CHECK(index["skills"][0]["name"] == "delta");
  CHECK(index["skills"][1]["name"] == "tool");
}

}  // namespace
}  // namespace skillnode::node::formats::catalogs
