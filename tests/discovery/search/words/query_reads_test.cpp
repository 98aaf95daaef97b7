// QueryReads (discovery/search/words/query_reads.h): how common each term is and which is the
// rarest, which terms may filter another's read, and the candidates the reads lead to.
#include "discovery/search/words/query_reads.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/search/word_fakes.h"
#include "discovery/text/bm25.h"
#include "kademlia/store/record/term_profile.h"
#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::TermProfile;

kademlia::store::TermPointer Pointer(const std::string& skill, const std::string& term,
                                     const std::vector<std::string_view>& profile = {}) {
  kademlia::store::TermPointer pointer =
      PointerOf(skillnode::testing::SampleRecord("agent-001", skill), term, 2.0);
  std::vector<std::pair<std::string_view, uint32_t>> weighted;
  for (const std::string_view t : profile) weighted.emplace_back(t, 200);
  pointer.terms = TermProfile::Of(weighted);
  return pointer;
}

// A reading of `pointers`, of a term whose shard 0 holds `count`.
TermReading Reading(std::vector<kademlia::store::TermPointer> pointers, uint64_t count,
                    bool complete = false) {
  TermReading reading;
  reading.pointers = std::move(pointers);
  reading.count = count;
  reading.complete = complete;
  return reading;
}

// Reads of "feishu" (40 held), "calendar" (5,000) and "meeting" (nothing held), one spelling each.
QueryReads ThreeTerms() {
  QueryReads reads(3);
  const char* terms[] = {"feishu", "calendar", "meeting"};
  for (size_t i = 0; i < 3; ++i) reads[i].Add(terms[i], false);
  reads[0].lookups[0].reading = Reading({Pointer("a", "feishu")}, 40);
  reads[1].lookups[0].reading = Reading({Pointer("a", "calendar"), Pointer("b", "calendar")}, 5000);
  return reads;
}

TEST_CASE("the rarest term is the one with pointers whose count is lowest", "[unit]") {
  QueryReads reads = ThreeTerms();
  CHECK(reads[0].Count() == 40);
  CHECK(reads[1].Count() == 5000);
  CHECK(reads[2].Count() == 0);
  CHECK(reads.Rarest() == 0);  // "meeting" has no pointers: it bounds nothing
  // A count is at least the pointers read (a holder that told less).
  reads[1].lookups[0].reading.count = 1;
  CHECK(reads[1].Count() == 2);
  // Equal counts: the first.
  reads[1].lookups[0].reading.count = 40;
  reads[1].lookups[0].reading.pointers.resize(1);
  CHECK(reads.Rarest() == 0);
  // No term with pointers: none.
  QueryReads empty(2);
  empty[0].Add("feishu", false);
  empty[1].Add("calendar", false);
  CHECK_FALSE(empty.Rarest().has_value());
  CHECK_FALSE(QueryReads().Rarest().has_value());
}

TEST_CASE("a read is filtered only by the other terms read under one spelling with pointers",
          "[unit]") {
  QueryReads reads = ThreeTerms();
  const uint16_t feishu = TermProfile::HashOf("feishu");
  const uint16_t calendar = TermProfile::HashOf("calendar");
  CHECK(reads.FilterFor(0, 8) == std::vector<uint16_t>{calendar});  // "meeting" has nothing
  CHECK(reads.FilterFor(1, 8) == std::vector<uint16_t>{feishu});
  CHECK(reads.FilterFor(2, 8) == std::vector<uint16_t>{feishu, calendar});
  CHECK(reads.FilterFor(2, 1) == std::vector<uint16_t>{feishu});
  // "calendar" also read as a completion: a record may hold either spelling.
  reads[1].Add("calendars", false);
  CHECK_FALSE(reads[1].SingleSpelling());
  CHECK(reads.FilterFor(0, 8).empty());
  // A correction read alone is an alternative: not its term's own spelling.
  QueryReads corrected(2);
  corrected[0].Add("feishu", false);
  corrected[0].lookups[0].reading = Reading({Pointer("a", "feishu")}, 40);
  corrected[1].Add("calendar", true);
  corrected[1].lookups[0].reading = Reading({Pointer("a", "calendar")}, 90);
  CHECK(corrected.FilterFor(0, 8).empty());
  CHECK(corrected.FilterFor(1, 8) == std::vector<uint16_t>{feishu});
}

TEST_CASE("reads fail together only when every lookup of every term failed", "[unit]") {
  QueryReads reads(2);
  reads[0].Add("feishu", false);
  reads[1].Add("calendar", false);
  reads[0].lookups[0].reading.failed = true;
  CHECK_FALSE(reads.AllFailed());
  reads[1].lookups[0].reading.failed = true;
  CHECK(reads.AllFailed());
  reads[1].Add("calendars", false);  // not answered yet: not failed
  CHECK_FALSE(reads.AllFailed());
  CHECK_FALSE(QueryReads().AllFailed());
}

TEST_CASE(
    "candidates cover a term from its pointers or their profiles, and a term read to its end "
    "under every spelling is closed",
    "[unit]") {
  auto match = text::TextMatch::Create("feishu calendar");
  REQUIRE(match);
  QueryReads reads(2);
  reads[0].Add("feishu", false);
  reads[1].Add("calendar", false);
  // "a" is named by feishu's pointers, and its profile holds calendar; "b" only by calendar's.
  reads[0].lookups[0].reading = Reading({Pointer("a", "feishu", {"feishu", "calendar"})}, 1, true);
  reads[1].lookups[0].reading =
      Reading({Pointer("b", "calendar", {"calendar"})}, 5000, /*complete=*/false);
  std::vector<WordCandidate> best = reads.Candidates(*match, text::Bm25Config::kK1Default).Best(10);
  REQUIRE(best.size() == 2);
  CHECK(best[0].identity.skill_id == "a");
  CHECK(best[0].terms_covered == 2);  // calendar from its profile
  CHECK(best[0].covers_closed);
  CHECK(best[1].identity.skill_id == "b");
  CHECK_FALSE(best[1].covers_closed);  // feishu was read to its end, and b is not there
  // A second spelling of feishu not read to its end: feishu is no longer closed.
  reads[0].Add("feishus", false);
  reads[0].lookups[1].reading = Reading({}, 300, false);
  best = reads.Candidates(*match, text::Bm25Config::kK1Default).Best(10);
  REQUIRE(best.size() == 2);
  CHECK(best[1].identity.skill_id == "b");
  CHECK(best[1].covers_closed);
}

}  // namespace
}  // namespace skillnode::discovery::search
