// SkillEntry (discovery/skill_entry.h): what every answer derives from a record version, made
// once: here its words, the distinct terms a word search matches its text against.
#include "discovery/skill_entry.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "discovery/text/analyzer.h"
#include "discovery/text/query_terms.h"
#include "discovery/text/record_text.h"
#include "discovery/text/skill_fields.h"
#include "support/records.h"

namespace skillnode::discovery {
namespace {

TEST_CASE("an entry's words are its record's analysed terms, sorted, made once per language",
          "[unit]") {
  kademlia::store::SkillRecord record = testing::SampleRecord("agent-001", "pdf-summary");
  record.descriptor = kademlia::store::SkillDescriptor{};
  record.descriptor->name = "PDF Summary";
  record.descriptor->description = "Summarises long PDF documents into short notes.";
  const SkillEntryPtr entry = SkillEntry::Make(record);
  text::Analyzer english = text::Analyzer::Create().value();
  const std::vector<std::string>& words = entry->Words(english);
  CHECK(words == text::DistinctTerms(text::AnalyzeSkill(english, text::SkillTextOf(record))));
  CHECK(std::is_sorted(words.begin(), words.end()));
  CHECK(std::adjacent_find(words.begin(), words.end()) == words.end());
  CHECK(std::binary_search(words.begin(), words.end(), "pdf"));
  CHECK(std::binary_search(words.begin(), words.end(), english.Analyze("summarises").front()));
  // Kept: the same vector, not analysed again.
  CHECK(&entry->Words(english) == &words);
  // Another language analyses again, with its own stemmer.
  text::Analyzer german = text::Analyzer::Create("german").value();
  CHECK(entry->Words(german) ==
        text::DistinctTerms(text::AnalyzeSkill(german, text::SkillTextOf(record))));
}

}  // namespace
}  // namespace skillnode::discovery
