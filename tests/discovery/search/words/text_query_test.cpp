// TextQuery (discovery/search/words/text_query.h): a search's text matched against the local and
// LAN stages' records into the merge, its typos corrected and its last word completed from the
// vocabulary, a word search's alternatives taken, the answer in the word-search order.
#include "discovery/search/words/text_query.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery::search {
namespace {

using kademlia::store::SkillRecord;
using Strings = std::vector<std::string>;

SkillRecord Named(const std::string& skill, const std::string& name) {
  SkillRecord r = skillnode::testing::SampleRecord("agent-001", skill);
  r.descriptor = kademlia::store::SkillDescriptor{};
  r.descriptor->name = name;
  r.capabilities.clear();
  r.scenes.clear();
  return r;
}

std::unique_ptr<TextQuery> For(const std::string& text) {
  SkillQuery query;
  query.text = text;
  query.types = {"enterprise-skill"};
  return TextQuery::For(query);
}

Strings Ids(const SearchMerge& merge) {
  SkillQuery all;
  Strings out;
  for (const Found& found : merge.Rank(all, 100).skills) out.push_back(found.record().skill_id);
  return out;
}

TEST_CASE("a text query is made only for a text with terms, and keeps the other filters",
          "[unit]") {
  CHECK(For("?!") == nullptr);
  CHECK(For("") == nullptr);
  const std::unique_ptr<TextQuery> text = For("feishu");
  REQUIRE(text != nullptr);
  CHECK(text->without_text().text.empty());
  CHECK(text->without_text().types == Strings{"enterprise-skill"});
}

TEST_CASE("the records and entries a stage found whose words hold every term are merged",
          "[unit]") {
  const std::unique_ptr<TextQuery> text = For("feishu cal");
  REQUIRE(text != nullptr);
  SearchMerge merge;
  const std::vector<SkillRecord> records = {Named("cal", "Feishu Calendar"),
                                            Named("docs", "Feishu Docs")};
  CHECK(TextQuery::AddFound(text.get(), records, Source::kLan, merge) == 1);
  const std::vector<SkillEntryPtr> entries = {SkillEntry::Make(Named("cal2", "Feishu Calls")),
                                              SkillEntry::Make(Named("zoom", "Zoom"))};
  CHECK(TextQuery::AddFound(text.get(), entries, Source::kLocal, merge) == 1);
  CHECK(Ids(merge) == Strings{"cal", "cal2"});
  // Without text, a stage's finds are all added.
  SearchMerge all;
  CHECK(TextQuery::AddFound(nullptr, records, Source::kLan, all) == 2);
  CHECK(TextQuery::AddFound(nullptr, entries, Source::kLocal, all) == 2);
}

TEST_CASE("typos and a word typed past its stem are corrected from the vocabulary", "[unit]") {
  VocabularyFeed vocabulary;
  vocabulary.NoteRecord(Named("cal", "Feishu Calendar"));
  vocabulary.NoteRecord(Named("tr", "Translate Japanese"));
  vocabulary.NoteRecord(Named("sum", "Summarize PDF"));
  const WordSearchConfig config;
  const struct {
    const char* text;
    const char* skill;
    const char* name;
    bool matched_before;  // as the last word, "calender" begins the stem "calendar" already
  } cases[] = {{"calender", "cal", "Feishu Calendar", true},
               {"feishu calender", "cal", "Feishu Calendar", true},
               {"calender feishu", "cal", "Feishu Calendar", false},
               {"transalte japanese", "tr", "Translate Japanese", false},
               {"pdf summari", "sum", "Summarize PDF", false}};
  for (const auto& c : cases) {
    INFO(c.text);
    std::unique_ptr<TextQuery> text = For(c.text);
    REQUIRE(text != nullptr);
    CHECK(text->MatchesText(Named(c.skill, c.name)) == c.matched_before);
    text->Correct(vocabulary, config);
    CHECK(text->MatchesText(Named(c.skill, c.name)));
  }
  // A word the vocabulary knows is not corrected to another.
  std::unique_ptr<TextQuery> text = For("feishu calendar");
  text->Correct(vocabulary, config);
  CHECK(text->terms().alternatives(0).empty());
  CHECK(text->terms().alternatives(1).empty());
}

TEST_CASE("a word search's alternatives are added to those found here", "[unit]") {
  VocabularyFeed vocabulary;
  vocabulary.NoteRecord(Named("cal", "Feishu Calendar"));
  std::unique_ptr<TextQuery> text = For("calender outlok");
  text->Correct(vocabulary, WordSearchConfig{});
  text::QueryTerms found = text->terms();
  found.AddAlternative(1, "outlook");
  text->TakeTerms(found);
  CHECK(text->terms().alternatives(0) == Strings{"calendar"});
  CHECK(text->terms().alternatives(1) == Strings{"outlook"});
  CHECK(text->MatchesText(Named("o", "Outlook Calendar")));
}

TEST_CASE("the answer is put in the word-search order, sources kept", "[unit]") {
  std::unique_ptr<TextQuery> text = For("feishu calendar");
  std::vector<Found> found = {
      Found{SkillEntry::Make(Named("docs", "Feishu Docs")), Source::kLan},
      Found{SkillEntry::Make(Named("cal", "Feishu Calendar")), Source::kDht}};
  text->Order(found, TextRanking{});
  REQUIRE(found.size() == 2);
  CHECK(found[0].record().skill_id == "cal");
  CHECK(found[0].source == Source::kDht);
  CHECK(found[1].source == Source::kLan);
}

}  // namespace
}  // namespace skillnode::discovery::search
