// RegistrationIndex (discovery/registry/registration_index.h) on its own: registrations found by
// capability, scene, skill id and index id through the slots their owner keeps them in, queries
// no index fits left to the caller, and removal forgetting every name.
#include "discovery/registry/registration_index.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery {
namespace {

using kademlia::store::SkillStatus;
using testing::SampleRecord;

SkillEntryPtr Entry(const std::string& agent, const std::string& skill) {
  return SkillEntry::Make(SampleRecord(agent, skill));
}

// "agent/skill" of each registration the query visits, in the order visited.
std::vector<std::string> Visited(const RegistrationIndex& index, const SkillQuery& query,
                                 RegistrationIndex::Lookup expected) {
  std::vector<std::string> out;
  const RegistrationIndex::Lookup lookup =
      index.ForEachMatch(query, [&out](const SkillEntryPtr& entry) {
        out.push_back(entry->record().agent_id + "/" + entry->record().skill_id);
      });
  CHECK(lookup == expected);
  return out;
}

constexpr auto kAnswered = RegistrationIndex::Lookup::kAnswered;

TEST_CASE("the registration index finds a registration by capability, scene and skill id",
          "[unit]") {
  RegistrationIndex index;
  const SkillEntryPtr feishu = Entry("agent-001", "skill-org-feishu");
  index.Add(&feishu);
  CHECK(index.size() == 1);
  SkillQuery query;
  query.capabilities = {"user-auth"};
  CHECK(Visited(index, query, kAnswered) == std::vector<std::string>{"agent-001/skill-org-feishu"});
  query.capabilities = {"org-data-read"};
  CHECK(Visited(index, query, kAnswered).size() == 1);
  query.capabilities.clear();
  query.scenes = {"auth"};
  CHECK(Visited(index, query, kAnswered).size() == 1);
  query.scenes.clear();
  query.skill_id = "skill-org-feishu";
  CHECK(Visited(index, query, kAnswered).size() == 1);
  query.skill_id = "skill-other";
  CHECK(Visited(index, query, kAnswered).empty());
  query.skill_id.reset();
  query.capabilities = {"no-such-capability"};
  CHECK(Visited(index, query, kAnswered).empty());
}

TEST_CASE("a query naming no capability, scene or skill id is left to the caller", "[unit]") {
  RegistrationIndex index;
  const SkillEntryPtr feishu = Entry("agent-001", "skill-org-feishu");
  index.Add(&feishu);
  SkillQuery query;
  query.agent_id = "agent-001";
  CHECK(Visited(index, query, RegistrationIndex::Lookup::kNoIndexFits).empty());
  CHECK(Visited(index, SkillQuery{}, RegistrationIndex::Lookup::kNoIndexFits).empty());
}

TEST_CASE("the registration index applies the query's other filters to what a name holds",
          "[unit]") {
  RegistrationIndex index;
  const SkillEntryPtr a = Entry("agent-a", "shared");
  const SkillEntryPtr b = Entry("agent-b", "shared");
  const SkillEntryPtr c = Entry("agent-c", "shared");
  index.Add(&a);
  index.Add(&b);
  index.Add(&c);
  SkillQuery query;
  query.capabilities = {"user-auth"};
  CHECK(Visited(index, query, kAnswered) ==
        std::vector<std::string>{"agent-a/shared", "agent-b/shared", "agent-c/shared"});
  query.agent_id = "agent-b";
  CHECK(Visited(index, query, kAnswered) == std::vector<std::string>{"agent-b/shared"});
  query.agent_id.reset();
  // The first capability picks the list; the second must match too.
  query.capabilities = {"user-auth", "not-held"};
  CHECK(Visited(index, query, kAnswered).empty());
}

TEST_CASE("the registration index applies a query's free text to what a capability holds",
          "[unit]") {
  RegistrationIndex index;
  const SkillEntryPtr shared = Entry("agent-a", "shared");
  const SkillEntryPtr feishu = Entry("agent-a", "skill-org-feishu");
  index.Add(&shared);
  index.Add(&feishu);
  SkillQuery query;
  query.capabilities = {"user-auth"};
  query.text = "feishu";  // the records have no descriptor: their name is their skill id
  CHECK(Visited(index, query, kAnswered) == std::vector<std::string>{"agent-a/skill-org-feishu"});
}

TEST_CASE("a search through the registration index sees the version its slot holds now", "[unit]") {
  RegistrationIndex index;
  SkillEntryPtr slot = Entry("agent-001", "skill-org-feishu");
  index.Add(&slot);
  kademlia::store::SkillRecord next = slot->record();
  next.status = SkillStatus::kDegraded;
  next.sequence = 2;
  slot = SkillEntry::Make(next);
  SkillQuery query;
  query.scenes = {"auth"};
  std::vector<SkillStatus> seen;
  CHECK(index.ForEachMatch(query, [&seen](const SkillEntryPtr& entry) {
    seen.push_back(entry->record().status);
  }) == kAnswered);
  CHECK(seen == std::vector<SkillStatus>{SkillStatus::kDegraded});
  query.scenes.clear();
  query.status = SkillStatus::kHealthy;
  query.skill_id = "skill-org-feishu";
  CHECK(Visited(index, query, kAnswered).empty());
  const kademlia::store::SkillRecord* found = index.FindByIndexId("agent-001.skill-org-feishu-v0");
  REQUIRE(found != nullptr);
  CHECK(found->status == SkillStatus::kDegraded);
}

TEST_CASE("the registration index finds a registration by its index id until it is removed",
          "[unit]") {
  RegistrationIndex index;
  const SkillEntryPtr feishu = Entry("agent-001", "skill-org-feishu");
  const SkillEntryPtr other = Entry("agent-002", "skill-org-feishu");
  index.Add(&feishu);
  index.Add(&other);
  const kademlia::store::SkillRecord* found = index.FindByIndexId("agent-001.skill-org-feishu-v0");
  REQUIRE(found != nullptr);
  CHECK(found->agent_id == "agent-001");
  CHECK(index.FindByIndexId("agent-001.skill-org-feishu-v1") == nullptr);

  index.Remove(&feishu);
  CHECK(index.size() == 1);
  CHECK(index.FindByIndexId("agent-001.skill-org-feishu-v0") == nullptr);
  REQUIRE(index.FindByIndexId("agent-002.skill-org-feishu-v0") != nullptr);
  SkillQuery query;
  query.capabilities = {"org-data-read"};
  CHECK(Visited(index, query, kAnswered) == std::vector<std::string>{"agent-002/skill-org-feishu"});

  index.Remove(&other);
  CHECK(index.size() == 0);
  for (const char* capability : {"org-data-read", "user-auth"}) {
    query.capabilities = {capability};
    CHECK(Visited(index, query, kAnswered).empty());
  }
  query.capabilities.clear();
  query.skill_id = "skill-org-feishu";
  CHECK(Visited(index, query, kAnswered).empty());
}

TEST_CASE("a registration removed and added with new fields is found only by the new ones",
          "[unit]") {
  RegistrationIndex index;
  SkillEntryPtr slot = Entry("agent-001", "skill-org-feishu");
  index.Add(&slot);
  index.Remove(&slot);
  kademlia::store::SkillRecord updated = slot->record();
  updated.version = "1.0.0";
  updated.capabilities = {"org-data-write"};
  slot = SkillEntry::Make(updated);
  index.Add(&slot);
  CHECK(index.size() == 1);
  SkillQuery query;
  query.capabilities = {"org-data-read"};
  CHECK(Visited(index, query, kAnswered).empty());
  query.capabilities = {"org-data-write"};
  CHECK(Visited(index, query, kAnswered).size() == 1);
  CHECK(index.FindByIndexId("agent-001.skill-org-feishu-v0") == nullptr);
  CHECK(index.FindByIndexId("agent-001.skill-org-feishu-v1") != nullptr);
}

}  // namespace
}  // namespace skillnode::discovery
