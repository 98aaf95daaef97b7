// SkillTextOf (discovery/text/record_text.h): a record's searchable fields.
#include "discovery/text/record_text.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"

namespace skillnode::discovery::text {
namespace {

using Strings = std::vector<std::string>;

TEST_CASE(
    "a record's text is its descriptor's name, description and tags with its capabilities "
    "and scenes",
    "[unit]") {
  const kademlia::store::SkillRecord record = testing::FullRecord();
  const SkillText text = SkillTextOf(record);
  CHECK(text.name == "Feishu Organization Service");
  CHECK(text.description == "Reads the organisation chart; answers user-auth challenges.");
  CHECK(text.tags == Strings{"org", "feishu"});
  CHECK(text.capabilities == Strings{"org-data-read", "user-auth"});
  CHECK(text.scenes == Strings{"auth"});
}

TEST_CASE("a record without a descriptor, or with an empty name, is named by its skill id",
          "[unit]") {
  kademlia::store::SkillRecord record = testing::SampleRecord("agent-001", "summarize-pdf");
  SkillText text = SkillTextOf(record);
  CHECK(text.name == "summarize-pdf");
  CHECK(text.description.empty());
  CHECK(text.tags.empty());
  record.descriptor = kademlia::store::SkillDescriptor{};
  record.descriptor->description = "Summaries of PDF files";
  text = SkillTextOf(record);
  CHECK(text.name == "summarize-pdf");
  CHECK(text.description == "Summaries of PDF files");
}

}  // namespace
}  // namespace skillnode::discovery::text
