// RegistryLookup (discovery/registry/registry_lookup.h) on its own, with an owner that keeps
// its registrations in a map by (skillId, agentId) as the Registry does: registrations indexed
// through the slots their owner keeps them in and found by capability, scene, skill id, type
// and index id, queries no name index fits answered through the owner's walk, a text narrowed
// through the word postings (and not when a name index fits or the language differs), a new
// version in a slot seen at once, and an unindexed registration found by no lookup.
#include "discovery/registry/registry_lookup.h"

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery {
namespace {

using kademlia::store::SkillRecord;
using kademlia::store::SkillStatus;

SkillEntryPtr Entry(const std::string& agent, const std::string& skill,
                    const std::string& description = "") {
  SkillRecord r = testing::SampleRecord(agent, skill);
  if (!description.empty()) {
    r.descriptor = kademlia::store::SkillDescriptor{};
    r.descriptor->description = description;
  }
  return SkillEntry::Make(std::move(r));
}

// "agent/skill" of each entry, in order.
std::vector<std::string> Names(const std::vector<SkillEntryPtr>& entries) {
  std::vector<std::string> out;
  for (const SkillEntryPtr& e : entries) {
    out.push_back(e->record().agent_id + "/" + e->record().skill_id);
  }
  return out;
}

std::vector<std::string> Names(const std::vector<SkillRecord>& records) {
  std::vector<std::string> out;
  for (const SkillRecord& r : records) out.push_back(r.agent_id + "/" + r.skill_id);
  return out;
}

// The owner: registrations in a map by (skillId, agentId), whose values never move.
struct Lookup {
  text::Analyzer analyzer = text::Analyzer::Create().value();
  std::map<std::pair<std::string, std::string>, SkillEntryPtr> owned;
  RegistryLookup lookup{analyzer, [this](const std::function<void(RegistryLookup::Slot)>& visit) {
                          for (const auto& entry : owned) visit(&entry.second);
                        }};
  // Keeps `entry` and indexes it; its slot, for a new version.
  SkillEntryPtr& Add(SkillEntryPtr entry) {
    const kademlia::store::SkillRecord& r = entry->record();
    const auto [it, added] = owned.try_emplace(std::pair(r.skill_id, r.agent_id), entry);
    REQUIRE(added);
    lookup.Index(&it->second);
    return it->second;
  }
  // Unindexes the registration in `slot` and drops it.
  void Remove(SkillEntryPtr& slot) {
    lookup.Unindex(&slot);
    owned.erase({slot->record().skill_id, slot->record().agent_id});
  }
  // FindEntries(query, text) for a text analysed here.
  std::vector<std::string> ByText(const std::string& text, const SkillQuery& query = {},
                                  std::string_view language = "") {
    const text::QueryTerms terms = text::QueryTerms::Of(analyzer, text);
    return Names(
        lookup.FindEntries(query, terms, language.empty() ? analyzer.language() : language));
  }
};

TEST_CASE("a registry lookup finds an indexed registration by each name it is filed under",
          "[unit]") {
  Lookup l;
  CHECK(l.lookup.size() == 0);
  l.Add(Entry("agent-001", "skill-org-feishu"));
  CHECK(l.lookup.size() == 1);
  const std::vector<std::string> found{"agent-001/skill-org-feishu"};
  SkillQuery query;
  query.capabilities = {"user-auth"};
  CHECK(Names(l.lookup.Find(query)) == found);
  CHECK(Names(l.lookup.FindEntries(query)) == found);
  query.capabilities = {"no-such-capability"};
  CHECK(l.lookup.Find(query).empty());
  query = SkillQuery{};
  query.scenes = {"auth"};
  CHECK(Names(l.lookup.Find(query)) == found);
  query = SkillQuery{};
  query.skill_id = "skill-org-feishu";
  CHECK(Names(l.lookup.Find(query)) == found);
  query.skill_id = "skill-other";
  CHECK(l.lookup.Find(query).empty());
  // No name index fits a type: the registrations are walked and filtered.
  query = SkillQuery{};
  query.types = {"enterprise-skill"};
  CHECK(Names(l.lookup.Find(query)) == found);
  query.types = {"personal-skill"};
  CHECK(l.lookup.Find(query).empty());
  const SkillRecord* by_id = l.lookup.FindByIndexId("agent-001.skill-org-feishu-v0");
  REQUIRE(by_id != nullptr);
  CHECK(by_id->skill_id == "skill-org-feishu");
  CHECK(l.lookup.FindByIndexId("agent-001.skill-org-feishu-v1") == nullptr);
}

TEST_CASE("a registry lookup answers a query no name index fits in (skillId, agentId) order",
          "[unit]") {
  Lookup l;
  for (const auto& [agent, skill] :
       std::vector<std::pair<std::string, std::string>>{{"agent-a", "skill-c"},
                                                        {"agent-b", "skill-a"},
                                                        {"agent-a", "skill-a"},
                                                        {"agent-c", "skill-b"}}) {
    l.Add(Entry(agent, skill));
  }
  const std::vector<std::string> sorted{"agent-a/skill-a", "agent-b/skill-a", "agent-c/skill-b",
                                        "agent-a/skill-c"};
  CHECK(Names(l.lookup.FindEntries(SkillQuery{})) == sorted);
  CHECK(Names(l.lookup.Find(SkillQuery{})) == sorted);
  SkillQuery agent;
  agent.agent_id = "agent-a";
  CHECK(Names(l.lookup.Find(agent)) ==
        std::vector<std::string>{"agent-a/skill-a", "agent-a/skill-c"});
  // A name index answers in the order its registrations were indexed.
  SkillQuery capability;
  capability.capabilities = {"org-data-read"};
  CHECK(Names(l.lookup.Find(capability)) ==
        std::vector<std::string>{"agent-a/skill-c", "agent-b/skill-a", "agent-a/skill-a",
                                 "agent-c/skill-b"});
}

TEST_CASE("a registry lookup narrows a text to the registrations holding its words", "[unit]") {
  Lookup l;
  l.Add(Entry("agent", "s-3", "Books meetings in calendars"));
  l.Add(Entry("agent", "s-1", "Finds and ranks invoices in spreadsheets"));
  l.Add(Entry("agent", "s-2", "Ranks invoices in ledgers"));
  // Through the postings, in (skillId, agentId) order whatever the order indexed.
  CHECK(l.ByText("invoices") == std::vector<std::string>{"agent/s-1", "agent/s-2"});
  CHECK(l.ByText("calendars") == std::vector<std::string>{"agent/s-3"});
  // The last term is read as a prefix too: "spread" begins "spreadsheet".
  CHECK(l.ByText("spread") == std::vector<std::string>{"agent/s-1"});
  CHECK(l.ByText("zebras").empty());
  // The query's other filters still apply to the candidates.
  SkillQuery other_type;
  other_type.types = {"personal-skill"};
  CHECK(l.ByText("invoices", other_type).empty());
  const std::vector<std::string> all{"agent/s-1", "agent/s-2", "agent/s-3"};
  // Another language's terms are not read against these words: every match of the query.
  CHECK(l.ByText("invoices", SkillQuery{}, "no-such-language") == all);
  // A query a name index fits is answered by it, the text left to the caller.
  SkillQuery capability;
  capability.capabilities = {"org-data-read"};
  CHECK(l.ByText("invoices", capability) ==
        std::vector<std::string>{"agent/s-3", "agent/s-1", "agent/s-2"});
}

TEST_CASE("a registry lookup sees the version a slot holds now", "[unit]") {
  Lookup l;
  SkillEntryPtr& slot = l.Add(Entry("agent-001", "skill-org-feishu", "Reads invoices"));
  // A new version with only another status: nothing to index again.
  SkillRecord degraded = slot->record();
  degraded.status = SkillStatus::kDegraded;
  slot = SkillEntry::Make(degraded);
  SkillQuery query;
  query.status = SkillStatus::kDegraded;
  CHECK(Names(l.lookup.Find(query)) == std::vector<std::string>{"agent-001/skill-org-feishu"});
  query.capabilities = {"user-auth"};
  CHECK(l.lookup.FindEntries(query).at(0) == slot);
  CHECK(l.lookup.FindByIndexId("agent-001.skill-org-feishu-v0")->status == SkillStatus::kDegraded);
  const text::QueryTerms terms = text::QueryTerms::Of(l.analyzer, "invoices");
  const std::vector<SkillEntryPtr> by_text =
      l.lookup.FindEntries(SkillQuery{}, terms, l.analyzer.language());
  REQUIRE(by_text.size() == 1);
  CHECK(by_text[0] == slot);
}

TEST_CASE("an unindexed registration is found by no lookup, the others still are", "[unit]") {
  Lookup l;
  l.Add(Entry("agent-001", "skill-kept", "Finds invoices"));
  SkillEntryPtr& gone = l.Add(Entry("agent-001", "skill-gone", "Finds invoices and receipts"));
  REQUIRE(l.lookup.size() == 2);
  REQUIRE(l.ByText("receipts") == std::vector<std::string>{"agent-001/skill-gone"});
  l.Remove(gone);
  CHECK(l.lookup.size() == 1);
  const std::vector<std::string> kept_only{"agent-001/skill-kept"};
  SkillQuery query;
  query.capabilities = {"user-auth"};
  CHECK(Names(l.lookup.Find(query)) == kept_only);
  query = SkillQuery{};
  query.scenes = {"auth"};
  CHECK(Names(l.lookup.FindEntries(query)) == kept_only);
  query = SkillQuery{};
  query.skill_id = "skill-gone";
  CHECK(l.lookup.Find(query).empty());
  CHECK(Names(l.lookup.Find(SkillQuery{})) == kept_only);
  CHECK(l.lookup.FindByIndexId("agent-001.skill-gone-v0") == nullptr);
  CHECK(l.lookup.FindByIndexId("agent-001.skill-kept-v0") != nullptr);
  CHECK(l.ByText("receipts").empty());
  CHECK(l.ByText("invoices") == kept_only);
  // Indexed again, with new words: found by them only.
  l.Add(Entry("agent-001", "skill-gone", "Books flights"));
  CHECK(l.ByText("receipts").empty());
  CHECK(l.ByText("flights") == std::vector<std::string>{"agent-001/skill-gone"});
}

}  // namespace
}  // namespace skillnode::discovery
