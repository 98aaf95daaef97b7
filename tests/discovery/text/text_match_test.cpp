// TextMatch (discovery/text/text_match.h): a query's text prepared once and matched against skill
// records, through their name, description, capabilities, tags and scenes.
#include "discovery/text/text_match.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery::text {
namespace {

using kademlia::store::SkillRecord;

SkillRecord Named(const std::string& name, const std::string& description = {}) {
  SkillRecord record = testing::SampleRecord("agent-001", "skill-x");
  record.capabilities = {};
  record.scenes = {};
  record.descriptor = kademlia::store::SkillDescriptor{};
  record.descriptor->name = name;
  record.descriptor->description = description;
  return record;
}

TextMatch Make(const std::string& text) {
  transport::Result<TextMatch> match = TextMatch::Create(text);
  REQUIRE(match.has_value());
  return std::move(*match);
}

TEST_CASE("a query matches a skill through the stems of its words", "[unit]") {
  TextMatch match = Make("summarising pdfs");
  CHECK(match.Filters());
  CHECK(match.Matches(Named("Summarize PDF")));
  CHECK(match.Matches(Named("Tools", "Summarizes PDF files")));
  CHECK_FALSE(match.Matches(Named("PDF reader")));
}

TEST_CASE("every word of a query must be found; one missing fails", "[unit]") {
  TextMatch match = Make("feishu calendar invite");
  SkillRecord record = Named("Feishu Calendar", "Creates events");
  CHECK_FALSE(match.Matches(record));
  record.descriptor->tags = {"invites"};
  CHECK(match.Matches(record));
}

TEST_CASE("a query's words are found in any field: capabilities, tags and scenes too", "[unit]") {
  SkillRecord record = Named("Helper");
  record.capabilities = {"pdf.summarize"};
  record.scenes = {"office"};
  record.descriptor->tags = {"documents"};
  CHECK(Make("summarize office document").Matches(record));
}

TEST_CASE("the last word of a query matches as a prefix, as the user types", "[unit]") {
  const SkillRecord record = Named("Feishu Calendar");
  CHECK(Make("feishu cal").Matches(record));
  CHECK(Make("calendar fei").Matches(record));
  CHECK_FALSE(Make("cal feishu").Matches(record));  // only the last word is a prefix
}

TEST_CASE("a CJK query matches a skill by its bigrams", "[unit]") {
  const SkillRecord record = Named("日本語翻訳", "把日语翻译成中文");
  CHECK(Make("日本語").Matches(record));
  CHECK(Make("翻译 中文").Matches(record));
  CHECK_FALSE(Make("韩语").Matches(record));
  CHECK(Make("日").Matches(record));  // a lone character completes a bigram as it is typed
}

TEST_CASE("a text with no terms filters nothing", "[unit]") {
  TextMatch match = Make(" -- 🎉 ");
  CHECK_FALSE(match.Filters());
  CHECK(match.Matches(Named("Anything")));
}

TEST_CASE("a record without a descriptor is matched by the words of its skill id", "[unit]") {
  SkillRecord record = testing::SampleRecord("agent-001", "summarize-pdf");
  record.descriptor.reset();
  CHECK(Make("pdf summary").Matches(record) == false);  // "summary" is the noun's stem
  CHECK(Make("pdf summarize").Matches(record));
}

}  // namespace
}  // namespace skillnode::discovery::text
