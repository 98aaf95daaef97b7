// The documents of skill-sharing §5 (node/api/skill_index.h): index entries and descriptors
// carry exactly the documented keys, ids follow §5.7, and URLs are built safely from the Host
// header.
#include "node/api/skill_index.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "discovery/query.h"
#include "support/records.h"

namespace skillnode::node::api {
namespace {

using nlohmann::json;

std::set<std::string> Keys(const json& object) {
  std::set<std::string> out;
  for (const auto& [key, value] : object.items()) out.insert(key);
  return out;
}

kademlia::store::SkillRecord Described() {
  kademlia::store::SkillRecord r = testing::SampleRecord("com.example", "translate");
  r.version = "2.1.0";
  kademlia::store::SkillDescriptor d;
  d.name = "Universal Translator";
  d.description = "Text translation";
  d.capability_type = "api";
  d.access = "restricted";
  d.tags = {"nlp"};
  d.input_schema = R"({"type":"object"})";
  d.examples = {"hello"};
  d.skill_md_sha256 = std::array<uint8_t, 32>{};
  r.descriptor = d;
  return r;
}

TEST_CASE("an index entry has exactly the seven keys of §5.2 and the id of §5.7", "[unit]") {
  const json entry = IndexEntryJson(Described(), "http://node.example:7070");
  CHECK(Keys(entry) == std::set<std::string>{"id", "name", "capability_type", "description",
                                             "descriptor_url", "access", "version"});
  CHECK(entry["id"] == "com.example.translate-v2");
  CHECK(entry["capability_type"] == "api");
  CHECK(entry["access"] == "restricted");
  CHECK(entry["descriptor_url"] ==
        "http://node.example:7070/skills/com.example.translate-v2/descriptor.json");
  // Without a descriptor: the skill id names it, its type is the capability type, public.
  const json bare = IndexEntryJson(testing::SampleRecord(), "http://h");
  CHECK(bare["name"] == "skill-org-feishu");
  CHECK(bare["capability_type"] == "enterprise-skill");
  CHECK(bare["access"] == "public");
  CHECK(bare["description"] == "");
  CHECK(bare["id"] == "agent-001.skill-org-feishu-v0");
}

TEST_CASE("a descriptor has the documented camelCase keys, schemas as objects", "[unit]") {
  const json d = DescriptorJson(Described(), ProviderInfo{"Example", "https://example.com", "ab"});
  CHECK(Keys(d) == std::set<std::string>{"id", "name", "description", "version", "capabilityType",
                                         "access", "agentId", "skillId", "skillType", "endpoint",
                                         "capabilities", "scenes", "tags", "inputSchema",
                                         "examples", "skillMdSha256", "provider", "status"});
  CHECK(d["inputSchema"] == json{{"type", "object"}});
  CHECK(d["skillMdSha256"] == std::string(64, '0'));
  CHECK(d["provider"] ==
        json{{"name", "Example"}, {"url", "https://example.com"}, {"nodeId", "ab"}});
  const json bare = DescriptorJson(testing::SampleRecord(), ProviderInfo{"n", "", "ab"});
  CHECK_FALSE(bare.contains("inputSchema"));
  CHECK_FALSE(bare.contains("outputSchema"));
  CHECK_FALSE(bare.contains("skillMdSha256"));
  CHECK_FALSE(bare["provider"].contains("url"));
}

TEST_CASE("descriptor URLs percent-encode the id and use only a plain Host header", "[unit]") {
  CHECK(DescriptorUrl("http://h:1", "a b/c.d-v1") ==
        "http://h:1/skills/a%20b%2Fc.d-v1/descriptor.json");
  http::HttpRequest request;
  request.headers = {{"host", "127.0.0.1:7070"}};
  CHECK(BaseUrl(request, "http://fallback") == "http://127.0.0.1:7070");
  request.headers = {{"host", "[::1]:7070"}};
  CHECK(BaseUrl(request, "http://fallback") == "http://[::1]:7070");
  request.headers = {{"host", "evil.example/path?x=<script>"}};
  CHECK(BaseUrl(request, "http://fallback") == "http://fallback");
  request.headers = {};
  CHECK(BaseUrl(request, "http://fallback") == "http://fallback");
}

}  // namespace
}  // namespace skillnode::node::api
