// SearchMerge: the newest version per (publisher, agentId, skillId) is kept; an equal version
// found locally says so; tombstones beat older copies; the answer keeps only matches, drops
// LAN and SkillCenter copies of skills a signed record answers, ranks, and is cut to
// results_max.
#include "discovery/search/search_merge.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;

// A record signed by `publisher` (only its key is set: the merge never checks signatures).
SkillRecord Signed(const std::string& skill, uint64_t sequence,
                   const std::string& publisher = "merge-publisher") {
  SkillRecord record = testing::SampleRecord("agent-1", skill);
  record.sequence = sequence;
  record.publisher = testing::Publisher(publisher).public_key();
  return record;
}

// What a SkillCenter catalog answers: no publisher.
SkillRecord Unsigned(const std::string& skill, uint64_t timestamp_ms) {
  SkillRecord record = testing::SampleRecord("agent-1", skill);
  record.timestamp_ms = timestamp_ms;
  record.endpoint = "catalog.example:1";
  return record;
}

SkillQuery ForCapability(const std::string& capability) {
  SkillQuery query;
  query.capabilities = {capability};
  return query;
}

std::vector<std::string> Skills(const SearchMerge::Ranked& ranked) {
  std::vector<std::string> out;
  for (const Found& found : ranked.skills) out.push_back(found.record().skill_id);
  return out;
}

TEST_CASE("the merge keeps the newest version of a record, whoever found it", "[unit]") {
  SearchMerge merge;
  merge.Add(Signed("skill-a", 2), Source::kDht);
  CHECK(merge.Add(Signed("skill-a", 1), Source::kCache).record().sequence == 2);
  const Found& newer = merge.Add(Signed("skill-a", 3), Source::kLan);
  CHECK(newer.record().sequence == 3);
  CHECK(newer.source == Source::kLan);
  CHECK(merge.size() == 1);
  // Another publisher's record of the same skill is another identity.
  merge.Add(Signed("skill-a", 1, "other-publisher"), Source::kDht);
  CHECK(merge.size() == 2);
}

TEST_CASE("the merge says local when this node's registration is the version found", "[unit]") {
  SearchMerge merge;
  merge.Add(Signed("skill-a", 4), Source::kDht);
  CHECK(merge.Add(SkillEntry::Make(Signed("skill-a", 4)), Source::kLocal, true).source ==
        Source::kLocal);
  SearchMerge by_record;
  by_record.Add(Signed("skill-a", 4), Source::kCache);
  CHECK(by_record.Add(Signed("skill-a", 4), Source::kLocal).source == Source::kLocal);
  // An older local version does not.
  SearchMerge older;
  older.Add(Signed("skill-a", 5), Source::kDht);
  CHECK(older.Add(Signed("skill-a", 4), Source::kLocal).source == Source::kDht);
}

TEST_CASE("the merge answers only live matches, a tombstone hiding older copies", "[unit]") {
  SearchMerge merge;
  const SkillQuery query = ForCapability("user-auth");
  CHECK_FALSE(merge.HasAnswer(query));
  SkillRecord tombstone = Signed("skill-gone", 2);
  tombstone.tombstone = true;
  merge.Add(tombstone, Source::kDht);
  merge.Add(Signed("skill-gone", 1), Source::kCache);  // older than the tombstone
  CHECK_FALSE(merge.HasAnswer(query));
  SkillRecord other = Signed("skill-other", 1);
  other.capabilities = {"translate"};
  merge.Add(other, Source::kDht);
  CHECK_FALSE(merge.HasAnswer(query));
  CHECK(merge.Rank(query, 10).skills.empty());
  merge.Add(Signed("skill-a", 1), Source::kDht);
  CHECK(merge.HasAnswer(query));
  CHECK(Skills(merge.Rank(query, 10)) == std::vector<std::string>{"skill-a"});
}

TEST_CASE("the merge trusts an entry handed over as matched without filtering it again", "[unit]") {
  SearchMerge merge;
  SkillRecord record = Signed("skill-a", 1);
  record.capabilities = {"translate"};
  merge.Add(SkillEntry::Make(record), Source::kLocal, /*matched=*/true);
  const SkillQuery query = ForCapability("user-auth");
  CHECK(merge.HasAnswer(query));
  CHECK(merge.Rank(query, 10).skills.size() == 1);
}

TEST_CASE("a signed record of a skill drops the LAN's copy of it", "[unit]") {
  SearchMerge merge;
  SkillRecord heard = Signed("skill-a", 9, "lan-publisher");
  merge.Add(heard, Source::kLan);
  merge.Add(Signed("skill-a", 1), Source::kDht);
  merge.Add(Signed("skill-lan-only", 1, "lan-publisher"), Source::kLan);
  const SearchMerge::Ranked ranked = merge.Rank(ForCapability("user-auth"), 10);
  REQUIRE(ranked.skills.size() == 2);
  for (const Found& found : ranked.skills) {
    if (found.record().skill_id == "skill-a") CHECK(found.source == Source::kDht);
    if (found.record().skill_id == "skill-lan-only") CHECK(found.source == Source::kLan);
  }
}

TEST_CASE("a SkillCenter record is dropped unless newer than the signed one", "[unit]") {
  SkillRecord signed_record = Signed("skill-a", 1);
  signed_record.timestamp_ms = 2000;
  SECTION("as new: the signed record answers") {
    SearchMerge merge;
    merge.Add(signed_record, Source::kDht);
    merge.Add(Unsigned("skill-a", 2000), Source::kSkillCenter);
    const auto ranked = merge.Rank(ForCapability("user-auth"), 10);
    REQUIRE(ranked.skills.size() == 1);
    CHECK(ranked.skills[0].source == Source::kDht);
  }
  SECTION("newer: both answer") {
    SearchMerge merge;
    merge.Add(signed_record, Source::kDht);
    merge.Add(Unsigned("skill-a", 2001), Source::kSkillCenter);
    CHECK(merge.Rank(ForCapability("user-auth"), 10).skills.size() == 2);
  }
}

TEST_CASE("the merged answer is ranked healthy first and cut to results_max", "[unit]") {
  SearchMerge merge;
  SkillRecord degraded = Signed("skill-a", 1);
  degraded.status = kademlia::store::SkillStatus::kDegraded;
  merge.Add(degraded, Source::kDht);
  merge.Add(Signed("skill-b", 1), Source::kDht);
  SkillRecord hidden = Signed("skill-c", 1);
  hidden.descriptor = kademlia::store::SkillDescriptor{};
  hidden.descriptor->access = "private";
  merge.Add(hidden, Source::kDht);
  const SkillQuery query = ForCapability("user-auth");
  const auto all = merge.Rank(query, 10);
  REQUIRE(all.skills.size() == 3);
  CHECK(all.skills.back().record().skill_id == "skill-a");
  CHECK(all.private_skills == 1);
  const auto cut = merge.Rank(query, 1);
  CHECK(cut.skills.size() == 1);
  CHECK(cut.skills[0].record().status == kademlia::store::SkillStatus::kHealthy);
  CHECK(cut.private_skills == 1);  // counted among the matches, before the cut
}

}  // namespace
}  // namespace skillnode::discovery::search
