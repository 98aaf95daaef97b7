#include "node/importers/plans/skills_plan.h"

#include <catch2/catch.hpp>

#include "discovery/skillmd/skill_folder.h"
#include "kademlia/wire/encoding.h"
#include "tests/node/importers/plans/registry_checks.h"

namespace skillnode::node::importers::plans {
namespace {

using discovery::skillmd::FolderFile;
using discovery::skillmd::FolderLimits;
using discovery::skillmd::Sha256Of;
using documents::AgentSkillsIndexEntry;
using documents::SkillArtifactType;
using testing::RequireRegistrable;

std::string SkillMd(const std::string& name = "pdf-tools") {
  return "---\nname: " + name +
         "\ndescription: Extracts text and tables from PDF files; fills forms.\n---\n"
         "# PDF tools\n\nRun scripts/extract.sh on the file.\n";
}

AgentSkillsIndexEntry Entry(SkillArtifactType type, std::string_view artifact,
                            const std::string& name = "pdf-tools") {
  AgentSkillsIndexEntry entry;
  entry.name = name;
  entry.type = type;
  entry.description = "Extracts text and tables from PDF files.";
  entry.url = name + (type == SkillArtifactType::kArchive ? ".tar" : "/SKILL.md");
  entry.digest = Sha256Of(artifact);
  return entry;
}

SkillsProvenance Provenance(const std::string& artifact_url) {
  SkillsProvenance provenance;
  provenance.index_url = "https://skills.example.org/.well-known/agent-skills/index.json";
  provenance.host = "skills.example.org";
  provenance.artifact_url = "https://skills.example.org/.well-known/agent-skills/" + artifact_url;
  return provenance;
}

std::string Hex(const std::array<uint8_t, 32>& digest) { return kademlia::wire::HexEncode(digest); }

TEST_CASE("a skill-md artifact that matches its digest becomes a folder registration", "[unit]") {
  const std::string skill_md = SkillMd();
  const AgentSkillsIndexEntry entry = Entry(SkillArtifactType::kSkillMd, skill_md);
  auto plan = PlanAgentSkill(entry, skill_md, Provenance(entry.url), FolderLimits{});
  REQUIRE(plan);
  RequireRegistrable(*plan);
  const auto& f = plan->fields;
  CHECK(f.agent_id == "skills.example.org");
  CHECK(f.skill_id == "pdf-tools");
  CHECK(f.version == kAgentSkillVersion);
  CHECK(f.skill_type == kAgentSkillType);
  CHECK(f.endpoint == "https://skills.example.org/.well-known/agent-skills/pdf-tools/SKILL.md");
  CHECK(f.capabilities == std::vector<std::string>{"pdf-tools"});
  REQUIRE(f.descriptor);
  CHECK(f.descriptor->name == "pdf-tools");
  CHECK(f.descriptor->description == "Extracts text and tables from PDF files; fills forms.");
  CHECK(f.descriptor->skill_md_sha256 == Sha256Of(skill_md));
  CHECK(f.descriptor->skill_md_size == skill_md.size());
  REQUIRE(f.descriptor->archive_sha256);
  REQUIRE(f.origin);
  CHECK(f.origin->format == kademlia::store::OriginFormat::kAgentSkills);
  CHECK(f.origin->source_url == "https://skills.example.org/.well-known/agent-skills/index.json");
  CHECK(f.origin->document_sha256 == Sha256Of(skill_md));
  CHECK(f.origin->document_size == skill_md.size());
  CHECK(f.origin->publisher_domain.empty());  // the import proves it later
  // SKILL.md (the artifact itself) and the folder's archive.
  REQUIRE(plan->bytes.size() == 2);
  CHECK(*plan->bytes[0].second == skill_md);
  CHECK(plan->bytes[1].first == *f.descriptor->archive_sha256);
}

TEST_CASE("an artifact that does not match its digest is refused before anything else", "[unit]") {
  const std::string skill_md = SkillMd();
  // The index's name is no skillId and the bytes are no SKILL.md: the digest is said first.
  AgentSkillsIndexEntry entry = Entry(SkillArtifactType::kSkillMd, skill_md, "PDF Tools");
  const std::string other = "not the SKILL.md the index names";
  SkillsProvenance provenance = Provenance("pdf/SKILL.md");
  provenance.host.clear();
  auto plan = PlanAgentSkill(entry, other, provenance, FolderLimits{});
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message ==
        "PDF Tools (https://skills.example.org/.well-known/agent-skills/pdf/SKILL.md): the "
        "artifact's bytes hash to sha256:" +
            Hex(Sha256Of(other)) + ", the index says sha256:" + Hex(Sha256Of(skill_md)) +
            "; nothing of it is imported");
}

TEST_CASE("an archive is read through the folder checks and planned with its digests", "[unit]") {
  const std::string skill_md = SkillMd();
  auto archive = discovery::skillmd::WriteArchive(
      {FolderFile{.path = "SKILL.md", .executable = false, .bytes = skill_md},
       FolderFile{.path = "scripts/extract.sh", .executable = true, .bytes = "#!/bin/sh\n"}});
  REQUIRE(archive);
  const AgentSkillsIndexEntry entry = Entry(SkillArtifactType::kArchive, *archive);
  auto plan = PlanAgentSkill(entry, *archive, Provenance(entry.url), FolderLimits{});
  REQUIRE(plan);
  RequireRegistrable(*plan);
  const auto& d = *plan->fields.descriptor;
  CHECK(d.skill_md_sha256 == Sha256Of(skill_md));
  CHECK(d.archive_sha256 == Sha256Of(*archive));  // the archive is the deterministic one
  CHECK(d.archive_size == archive->size());
  CHECK(plan->fields.origin->document_sha256 == Sha256Of(*archive));
  REQUIRE(plan->bytes.size() == 2);
  CHECK(*plan->bytes[0].second == skill_md);
  CHECK(*plan->bytes[1].second == *archive);
}

TEST_CASE("an archive holding what a folder may not is refused with the folder's reason",
          "[unit]") {
  auto archive = discovery::skillmd::WriteArchive(
      {FolderFile{.path = "README.md", .executable = false, .bytes = "no SKILL.md here"}});
  REQUIRE(archive);
  const AgentSkillsIndexEntry entry = Entry(SkillArtifactType::kArchive, *archive);
  auto plan = PlanAgentSkill(entry, *archive, Provenance(entry.url), FolderLimits{});
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.find("SKILL.md") != std::string::npos);
}

TEST_CASE("a SKILL.md whose front matter names another skill than the index is refused", "[unit]") {
  const std::string skill_md = SkillMd("pdf-reader");
  const AgentSkillsIndexEntry entry = Entry(SkillArtifactType::kSkillMd, skill_md);
  auto plan = PlanAgentSkill(entry, skill_md, Provenance(entry.url), FolderLimits{});
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message ==
        "pdf-tools (https://skills.example.org/.well-known/agent-skills/pdf-tools/SKILL.md): "
        "SKILL.md names itself \"pdf-reader\", the index \"pdf-tools\"");
}

TEST_CASE("an index name that is no skillId is refused naming it", "[unit]") {
  const std::string skill_md = SkillMd();
  const AgentSkillsIndexEntry entry = Entry(SkillArtifactType::kSkillMd, skill_md, "PDF Tools");
  auto plan = PlanAgentSkill(entry, skill_md, Provenance("pdf/SKILL.md"), FolderLimits{});
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.find("the name \"PDF Tools\" is not a skillId") != std::string::npos);
}

TEST_CASE("an index read from no host gives no agentId and is refused", "[unit]") {
  const std::string skill_md = SkillMd();
  const AgentSkillsIndexEntry entry = Entry(SkillArtifactType::kSkillMd, skill_md);
  SkillsProvenance provenance = Provenance(entry.url);
  provenance.host.clear();
  auto plan = PlanAgentSkill(entry, skill_md, provenance, FolderLimits{});
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.ends_with("the index URL has no host to make an agentId of"));
}

}  // namespace
}  // namespace skillnode::node::importers::plans
