// VocabularyFeed (discovery/search/words/vocabulary_feed.h): the terms and surface words of a
// record noted once per version, the terms the index answered, the bounds, and typos and
// completions at the word level answered as stems.
#include "discovery/search/words/vocabulary_feed.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using Strings = std::vector<std::string>;

kademlia::store::SkillRecord Named(const std::string& skill, const std::string& name) {
  kademlia::store::SkillRecord r = skillnode::testing::SampleRecord("agent-001", skill);
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->name = name;
  r.capabilities.clear();
  r.scenes.clear();
  return r;
}

TEST_CASE("a record version's terms and words are noted once, a new version's again", "[unit]") {
  VocabularyFeed feed;
  kademlia::store::SkillRecord record = Named("cal", "Feishu Calendar calendars");
  CHECK_FALSE(feed.Noted(record));
  feed.NoteRecord(record);
  feed.NoteRecord(record);
  CHECK(feed.Noted(record));
  CHECK(feed.vocabulary().CountOf("calendar") == 1);  // distinct terms: once per record
  CHECK(feed.words().CountOf("calendars") == 1);
  CHECK(feed.words().CountOf("feishu") == 1);
  record.sequence = 2;
  CHECK_FALSE(feed.Noted(record));
  feed.NoteRecord(record);
  CHECK(feed.vocabulary().CountOf("calendar") == 2);
  feed.NoteIndexed("meet");
  CHECK(feed.vocabulary().Correct("meat", 1) == Strings{"meet"});
}

TEST_CASE("a tombstone teaches the vocabulary nothing", "[unit]") {
  VocabularyFeed feed;
  kademlia::store::SkillRecord record = Named("cal", "Feishu Calendar");
  record.tombstone = true;
  feed.NoteRecord(record);
  CHECK(feed.vocabulary().size() == 0);
  CHECK(feed.words().size() == 0);
}

TEST_CASE("the versions remembered and the words kept are bounded", "[unit]") {
  VocabularyLimits limits;
  limits.terms_max = 100;
  limits.words_max = 2;
  limits.records_max = 1;
  VocabularyFeed feed(limits);
  const kademlia::store::SkillRecord a = Named("a", "alpha");
  const kademlia::store::SkillRecord b = Named("b", "alpha beta gamma");
  feed.NoteRecord(a);
  feed.NoteRecord(b);
  CHECK_FALSE(feed.Noted(a));  // forgotten when b came
  CHECK(feed.Noted(b));
  CHECK(feed.vocabulary().CountOf("alpha") == 2);
  CHECK(feed.words().size() == 2);
}

TEST_CASE("the oldest version remembered is forgotten first", "[unit]") {
  VocabularyLimits limits;
  limits.records_max = 2;
  VocabularyFeed feed(limits);
  const kademlia::store::SkillRecord a = Named("a", "alpha");
  kademlia::store::SkillRecord b = Named("b", "beta");
  const kademlia::store::SkillRecord c = Named("c", "gamma");
  feed.NoteRecord(a);
  feed.NoteRecord(b);
  feed.NoteRecord(a);  // noted already: counts nothing, stays the oldest
  feed.NoteRecord(c);
  CHECK_FALSE(feed.Noted(a));
  CHECK(feed.Noted(b));
  CHECK(feed.Noted(c));
  CHECK(feed.vocabulary().CountOf("alpha") == 1);
  // Another version of b is another record version.
  b.sequence += 1;
  CHECK_FALSE(feed.Noted(b));
}

TEST_CASE("a word one edit from a known word is corrected to that word's stem", "[unit]") {
  VocabularyFeed feed;
  feed.NoteRecord(Named("cal", "Feishu Calendar"));
  feed.NoteRecord(Named("tr", "Translate Japanese text"));
  // "calender" stems to "calend", two edits from the stem "calendar"; the words are one apart.
  CHECK(feed.vocabulary().Correct("calend", 3).empty());
  CHECK(feed.WordCorrections("calender", 3) == Strings{"calendar"});
  CHECK(feed.WordCorrections("transalte", 3) == Strings{"translat"});  // a swap
  CHECK(feed.WordCorrections("calendar", 3).empty());  // the word's own stem is none
  CHECK(feed.WordCorrections("zzz", 3).empty());
}

TEST_CASE("a word being typed completes to the stems of the words it begins, each once", "[unit]") {
  VocabularyFeed feed;
  feed.NoteRecord(Named("a", "Summarize meetings"));
  feed.NoteRecord(Named("b", "summarizes summarization"));
  feed.NoteRecord(Named("c", "Summary of a day"));
  // "summari" is not a prefix of the stem "summar"; it is of the words "summarize", ...
  CHECK(feed.WordCompletions("summari", 3) == Strings{"summar"});  // summari itself excluded
  CHECK(feed.WordCompletions("summ", 3) == Strings{"summar", "summari"});
  CHECK(feed.WordCompletions("summ", 1) == Strings{"summar"});
}

}  // namespace
}  // namespace skillnode::discovery::search
