#include "discovery/query.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery {
namespace {

using kademlia::store::SkillDescriptor;
using kademlia::store::SkillRecord;
using kademlia::store::SkillStatus;
using testing::SampleRecord;

// skill-org-feishu 0.7.0, enterprise-skill, {org-data-read, user-auth}, {auth}, with a
// descriptor.
SkillRecord Feishu() {
  SkillRecord r = SampleRecord("agent-001", "skill-org-feishu");
  SkillDescriptor d;
  d.name = "Feishu Organization Service";
  d.description = "Reads the organisation chart.";
  d.tags = {"org", "Lark"};
  r.descriptor = d;
  return r;
}

SemverRange Range(const char* text) { return SemverRange::Parse(text).value(); }

TEST_CASE("An empty query matches every live record and no tombstone", "[unit]") {
  SkillRecord r = Feishu();
  CHECK(Matches(SkillQuery{}, r));
  r.tombstone = true;
  CHECK_FALSE(Matches(SkillQuery{}, r));
}

TEST_CASE("Capabilities and scenes must all be present", "[unit]") {
  const SkillRecord r = Feishu();
  SkillQuery q;
  q.capabilities = {"user-auth"};
  CHECK(Matches(q, r));
  q.capabilities = {"user-auth", "org-data-read"};
  CHECK(Matches(q, r));
  q.capabilities = {"user-auth", "payments"};
  CHECK_FALSE(Matches(q, r));
  q.capabilities = {"User-Auth"};
  CHECK_FALSE(Matches(q, r));
  q.capabilities.clear();
  q.scenes = {"auth"};
  CHECK(Matches(q, r));
  q.scenes = {"auth", "chat"};
  CHECK_FALSE(Matches(q, r));
}

TEST_CASE("Types match when the record's type is any of them", "[unit]") {
  const SkillRecord r = Feishu();
  SkillQuery q;
  q.types = {"tool-skill", "enterprise-skill"};
  CHECK(Matches(q, r));
  q.types = {"tool-skill"};
  CHECK_FALSE(Matches(q, r));
}

TEST_CASE("Each keyword must appear, case-insensitively, in an id, descriptor or capability",
          "[unit]") {
  const SkillRecord r = Feishu();
  auto matches = [&r](std::vector<std::string> keywords) {
    SkillQuery q;
    q.keywords = std::move(keywords);
    return Matches(q, r);
  };
  CHECK(matches({"FEISHU"}));        // skill id
  CHECK(matches({"organization"}));  // descriptor name
  CHECK(matches({"CHART"}));         // description
  CHECK(matches({"lark"}));          // tag
  CHECK(matches({"data-READ"}));     // capability
  CHECK(matches({"feishu", "lark"}));
  CHECK_FALSE(matches({"feishu", "dingding"}));
  CHECK_FALSE(matches({"enterprise"}));  // the type is not searched
  SkillRecord bare = r;
  bare.descriptor.reset();
  SkillQuery q;
  q.keywords = {"lark"};
  CHECK_FALSE(Matches(q, bare));
}

TEST_CASE("A version filter needs a parsable version inside the range", "[unit]") {
  SkillRecord r = Feishu();
  SkillQuery q;
  q.version = Range(">=0.7.0");
  CHECK(Matches(q, r));
  q.version = Range("^0.8");
  CHECK_FALSE(Matches(q, r));
  r.version = "latest";
  q.version = Range("*");
  CHECK_FALSE(Matches(q, r));
  CHECK(Matches(SkillQuery{}, r));
}

TEST_CASE("Agent, skill and status filters are exact", "[unit]") {
  const SkillRecord r = Feishu();
  SkillQuery q;
  q.agent_id = "agent-001";
  q.skill_id = "skill-org-feishu";
  q.status = SkillStatus::kHealthy;
  CHECK(Matches(q, r));
  SkillQuery other = q;
  other.agent_id = "agent-002";
  CHECK_FALSE(Matches(other, r));
  other = q;
  other.skill_id = "skill-org";
  CHECK_FALSE(Matches(other, r));
  other = q;
  other.status = SkillStatus::kDegraded;
  CHECK_FALSE(Matches(other, r));
}

TEST_CASE("Filters combine with AND", "[unit]") {
  const SkillRecord r = Feishu();
  SkillQuery q;
  q.capabilities = {"org-data-read", "user-auth"};
  q.scenes = {"auth"};
  q.types = {"enterprise-skill"};
  q.keywords = {"feishu"};
  q.version = Range(">=0.7.0");
  CHECK(Matches(q, r));
  q.version = Range(">0.7.0");
  CHECK_FALSE(Matches(q, r));
  q.version.reset();
  q.types = {"tool-skill"};
  CHECK_FALSE(Matches(q, r));
}

SkillRecord Ranked(const char* skill, const char* agent, const char* version, SkillStatus status) {
  SkillRecord r = SampleRecord(agent, skill);
  r.version = version;
  r.status = status;
  return r;
}

TEST_CASE("Rank puts healthier, then newer, then alphabetically first records first", "[unit]") {
  std::vector<SkillRecord> records = {
      Ranked("s-b", "a-1", "1.0.0", SkillStatus::kUnhealthy),
      Ranked("s-b", "a-1", "2.0.0", SkillStatus::kMaintenance),
      Ranked("s-b", "a-2", "1.0.0", SkillStatus::kHealthy),
      Ranked("s-a", "a-9", "garbage", SkillStatus::kHealthy),
      Ranked("s-a", "a-1", "1.0.0", SkillStatus::kHealthy),
      Ranked("s-z", "a-1", "1.10.0", SkillStatus::kHealthy),
      Ranked("s-z", "a-1", "1.10.0-rc.1", SkillStatus::kHealthy),
      Ranked("s-c", "a-1", "9.0.0", SkillStatus::kDegraded),
      Ranked("s-b", "a-1", "1.0.0", SkillStatus::kHealthy),
  };
  std::vector<SkillRecord> reversed(records.rbegin(), records.rend());
  Rank(records);
  std::vector<std::string> got;
  for (const SkillRecord& r : records) {
    got.push_back(r.skill_id + "/" + r.agent_id + "@" + r.version);
  }
  CHECK(got == std::vector<std::string>{"s-z/a-1@1.10.0", "s-z/a-1@1.10.0-rc.1", "s-a/a-1@1.0.0",
                                        "s-b/a-1@1.0.0", "s-b/a-2@1.0.0", "s-a/a-9@garbage",
                                        "s-c/a-1@9.0.0", "s-b/a-1@2.0.0", "s-b/a-1@1.0.0"});
  Rank(reversed);
  CHECK(reversed == records);
}

TEST_CASE("The canonical key ignores list order, duplicates and keyword case", "[unit]") {
  SkillQuery a;
  a.capabilities = {"user-auth", "org-data-read"};
  a.keywords = {"Feishu"};
  a.version = Range("~1.2");
  SkillQuery b;
  b.capabilities = {"org-data-read", "user-auth", "user-auth"};
  b.keywords = {"feishu"};
  b.version = Range(">=1.2.0 <1.3.0-0");
  CHECK(CanonicalQueryKey(a) == CanonicalQueryKey(b));
  b.version = Range("~1.3");
  CHECK(CanonicalQueryKey(a) != CanonicalQueryKey(b));
}

TEST_CASE("a format filter keeps only the records listed in that format", "[unit]") {
  SkillRecord record;
  record.agent_id = "weather";
  record.skill_id = "forecast";
  SkillQuery query;
  query.format = kademlia::store::RecordFormat::kMcpServer;
  CHECK_FALSE(Matches(query, record));
  record.skill_type = std::string(kademlia::store::kMcpServerSkillType);
  CHECK(Matches(query, record));
  query.format = kademlia::store::RecordFormat::kAgentSkill;
  CHECK_FALSE(Matches(query, record));
}

TEST_CASE("Different queries have different canonical keys", "[unit]") {
  std::vector<SkillQuery> queries(15);
  queries[13].text = "summarise pdf";
  queries[14].keywords = {"summarise pdf"};
  queries[11].format = kademlia::store::RecordFormat::kMcpServer;
  queries[12].format = kademlia::store::RecordFormat::kAgentSkill;
  queries[9].capability_types = {"a"};
  queries[10].capability_types = {"a", "b"};
  queries[1].capabilities = {"a,b"};
  queries[2].capabilities = {"a", "b"};
  queries[3].scenes = {"a"};
  queries[4].types = {"a"};
  queries[5].agent_id = "";
  queries[6].skill_id = "a;scenes=b";
  queries[7].skill_id = "a";
  queries[7].scenes = {"b"};
  queries[8].status = SkillStatus::kHealthy;
  for (size_t i = 0; i < queries.size(); ++i) {
    for (size_t j = i + 1; j < queries.size(); ++j) {
      INFO(i << " vs " << j);
      CHECK(CanonicalQueryKey(queries[i]) != CanonicalQueryKey(queries[j]));
    }
  }
}

TEST_CASE("A capability type filter matches the descriptor's capabilityType, any of them",
          "[unit]") {
  SkillRecord r = Feishu();
  r.descriptor->capability_type = "api";
  SkillQuery q;
  q.capability_types = {"api"};
  CHECK(Matches(q, r));
  q.capability_types = {"tool", "api"};
  CHECK(Matches(q, r));
  q.capability_types = {"enterprise-skill"};  // the skill type is not the capability type
  CHECK_FALSE(Matches(q, r));
  CHECK_FALSE(Matches(q, SampleRecord()));  // no descriptor, no capability type
  CHECK(CapabilityTypeOf(r) == "api");
  CHECK(CapabilityTypeOf(SampleRecord()) == "enterprise-skill");
}

TEST_CASE("Access levels: empty and unknown are public; only private is private", "[unit]") {
  SkillRecord r = Feishu();
  CHECK(AccessOf(r) == Access::kPublic);
  CHECK(AccessOf(SampleRecord()) == Access::kPublic);
  r.descriptor->access = "restricted";
  CHECK(AccessOf(r) == Access::kRestricted);
  CHECK_FALSE(IsPrivate(r));
  r.descriptor->access = "private";
  CHECK(IsPrivate(r));
  CHECK(AccessName(AccessOf(r)) == "private");
}

TEST_CASE("Index ids are agent.skill-vMAJOR and give back every skill id they may hold", "[unit]") {
  SkillRecord r = SampleRecord("com.example", "translate");
  r.version = "12.3.4-rc.1";
  CHECK(IndexId(r) == "com.example.translate-v12");
  r.version = "garbage";
  CHECK(IndexId(r) == "com.example.translate-v0");
  CHECK(IndexIdSkillCandidates("com.example.translate-v12", 8) ==
        std::vector<std::string>{"example.translate", "translate"});
  CHECK(IndexIdSkillCandidates("a.b-c-v1", 8) == std::vector<std::string>{"b-c"});
  CHECK(IndexIdSkillCandidates("a.b.c.d-v1", 2) == std::vector<std::string>{"b.c.d", "c.d"});
  for (const char* bad : {"nodot-v1", "a.b", "a.b-v", "a.b-vx", ".b-v1", "a.-v1"}) {
    INFO(bad);
    CHECK(IndexIdSkillCandidates(bad, 8).empty());
  }
}

TEST_CASE("A query's free text matches the record's words, and combines with other filters",
          "[unit]") {
  const SkillRecord r = Feishu();
  SkillQuery q;
  q.text = "organisation services";
  CHECK(Matches(q, r));
  CHECK(MatchesExceptText(q, r));
  q.text = "organisation payroll";
  CHECK_FALSE(Matches(q, r));
  CHECK(MatchesExceptText(q, r));
  q.text = "feishu org";  // the last word completes "organ" (organization's stem)
  CHECK(Matches(q, r));
  q.capabilities = {"not-held"};
  CHECK_FALSE(Matches(q, r));
  q.capabilities.clear();
  q.text = "?!";  // no terms: filters nothing
  CHECK(Matches(q, r));
  SkillRecord dead = r;
  dead.tombstone = true;
  q.text = "feishu";
  CHECK_FALSE(Matches(q, dead));
  CHECK_FALSE(MatchesExceptText(q, dead));
}

}  // namespace
}  // namespace skillnode::discovery
