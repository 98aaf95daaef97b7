// VocabularyFeed (discovery/search/vocabulary_feed.h): the vocabulary fed once per record
// version and with the terms the index answered.
#include "discovery/search/vocabulary_feed.h"

#include <catch2/catch.hpp>

#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

TEST_CASE("a record version's terms are noted once, a new version's again", "[unit]") {
  VocabularyFeed feed;
  kademlia::store::SkillRecord record = skillnode::testing::SampleRecord();
  CHECK_FALSE(feed.Noted(record));
  feed.NoteRecord(record, {"calendar", "feishu"});
  feed.NoteRecord(record, {"calendar", "feishu"});
  CHECK(feed.Noted(record));
  CHECK(feed.vocabulary().CountOf("calendar") == 1);
  record.sequence = 2;
  CHECK_FALSE(feed.Noted(record));
  feed.NoteRecord(record, {"calendar"});
  CHECK(feed.vocabulary().CountOf("calendar") == 2);
  feed.NoteIndexed("meet");
  CHECK(feed.vocabulary().Correct("meat", 1) == std::vector<std::string>{"meet"});
}

TEST_CASE("the versions remembered are bounded, forgotten all at once", "[unit]") {
  VocabularyFeed feed(100, 1);
  kademlia::store::SkillRecord a = skillnode::testing::SampleRecord("agent-001", "a");
  kademlia::store::SkillRecord b = skillnode::testing::SampleRecord("agent-001", "b");
  feed.NoteRecord(a, {"x"});
  feed.NoteRecord(b, {"x"});
  CHECK_FALSE(feed.Noted(a));
  CHECK(feed.Noted(b));
  CHECK(feed.vocabulary().CountOf("x") == 2);
}

}  // namespace
}  // namespace skillnode::discovery::search
