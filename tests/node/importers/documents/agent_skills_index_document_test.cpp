#include "node/importers/documents/agent_skills_index_document.h"

#include <catch2/catch.hpp>

namespace skillnode::node::importers::documents {
namespace {

using nlohmann::json;

const std::string kDigest =
    "sha256:34f7a8c484e9991f3e71a309f31332d6335efc01f544105c4185a7c4ab12eb1e";

TEST_CASE("a sha256 digest is read as 32 bytes and anything else is refused", "[unit]") {
  auto digest = ParseSha256Digest(kDigest);
  REQUIRE(digest);
  CHECK((*digest)[0] == 0x34);
  CHECK((*digest)[31] == 0x1e);
  CHECK_FALSE(ParseSha256Digest("sha512:" + kDigest.substr(7)));
  CHECK_FALSE(ParseSha256Digest(kDigest.substr(0, 70)));
  std::string upper = kDigest;
  upper[10] = 'A';
  CHECK_FALSE(ParseSha256Digest(upper));
}

TEST_CASE("a v0.2.0 skills index gives each entry with its type, url and digest", "[unit]") {
  json index = {{"$schema", "https://schemas.agentskills.io/discovery/0.2.0/schema.json"},
                {"skills",
                 {{{"name", "dht-debugging"},
                   {"type", "skill-md"},
                   {"description", "Diagnose lookups."},
                   {"url", "/.well-known/agent-skills/dht-debugging/SKILL.md"},
                   {"digest", kDigest}},
                  {{"name", "release-tools"},
                   {"type", "archive"},
                   {"description", "Build releases."},
                   {"url", "https://cdn.example.org/r.tar.gz"},
                   {"digest", kDigest}}}}};
  auto read = ReadAgentSkillsIndex(index.dump());
  REQUIRE(read);
  CHECK(read->schema == "https://schemas.agentskills.io/discovery/0.2.0/schema.json");
  REQUIRE(read->entries.size() == 2);
  REQUIRE(read->entries[0]);
  CHECK(read->entries[0]->name == "dht-debugging");
  CHECK(read->entries[0]->type == SkillArtifactType::kSkillMd);
  CHECK(read->entries[0]->url == "/.well-known/agent-skills/dht-debugging/SKILL.md");
  CHECK(read->entries[0]->digest == *ParseSha256Digest(kDigest));
  REQUIRE(read->entries[1]);
  CHECK(read->entries[1]->type == SkillArtifactType::kArchive);
  CHECK(SkillArtifactTypeName(SkillArtifactType::kArchive) == "archive");
}

TEST_CASE("a skills index entry without a checkable digest or of another type is not read",
          "[unit]") {
  json index = {
      {"version", "0.1.0"},
      {"skills",
       {{{"name", "old"}, {"description", "v0.1"}, {"files", {"SKILL.md"}}},
        {{"name", "plugin"},
         {"type", "plugin"},
         {"description", "x"},
         {"url", "p"},
         {"digest", kDigest}},
        {{"name", "bad"},
         {"type", "skill-md"},
         {"description", "x"},
         {"url", "b"},
         {"digest", "md5:abc"}},
        {{"name", "nourl"}, {"type", "skill-md"}, {"description", "x"}, {"digest", kDigest}}}}};
  auto read = ReadAgentSkillsIndex(index.dump());
  REQUIRE(read);
  CHECK(read->schema == "version 0.1.0");
  REQUIRE(read->entries.size() == 4);
  REQUIRE_FALSE(read->entries[0]);
  CHECK_THAT(read->entries[0].error().message, Catch::Contains("the v0.1 form"));
  REQUIRE_FALSE(read->entries[1]);
  CHECK(read->entries[1].error().code == transport::ErrorCode::kUnsupported);
  CHECK_THAT(read->entries[1].error().message, Catch::Contains("skipped"));
  REQUIRE_FALSE(read->entries[2]);
  CHECK_THAT(read->entries[2].error().message, Catch::StartsWith("skills[2].digest: "));
  REQUIRE_FALSE(read->entries[3]);
  CHECK(read->entries[3].error().message == "skills[3].url: required, a non-empty string");
}

}  // namespace
}  // namespace skillnode::node::importers::documents
