// The searchable fields: names, default weights and the analysis of each field.
#include "discovery/text/skill_fields.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "discovery/text/analyzer.h"

namespace skillnode::discovery::text {
namespace {

using Strings = std::vector<std::string>;

TEST_CASE("each field has a name and a default weight, name and capabilities the highest",
          "[unit]") {
  const FieldWeights weights;
  CHECK(FieldName(Field::kCapabilities) == "capabilities");
  CHECK(FieldName(Field::kScenes) == "scenes");
  for (Field field : kFields) {
    CHECK(weights.Of(field) <= weights.Of(Field::kName));
    CHECK(weights.Of(field) >= weights.Of(Field::kDescription));
  }
  CHECK(weights.Of(Field::kCapabilities) == weights.Of(Field::kName));
}

TEST_CASE("a skill's fields are analysed each on its own, list values one by one", "[unit]") {
  transport::Result<Analyzer> analyzer = Analyzer::Create();
  REQUIRE(analyzer.has_value());
  SkillText skill;
  skill.name = "PDF Summariser";
  skill.description = "Summarises the PDF files you give it";
  skill.capabilities = {"pdf.summarize", "the"};  // "the" alone is a stop-word-only value
  skill.tags = {"documents"};
  skill.scenes = {"办公"};
  const FieldedTerms terms = AnalyzeSkill(*analyzer, skill);
  CHECK(terms.of(Field::kName) == Strings{"pdf", "summar"});
  CHECK(terms.of(Field::kDescription) == Strings{"summar", "pdf", "file", "give"});
  CHECK(terms.of(Field::kCapabilities) == Strings{"pdf", "summar", "the"});
  CHECK(terms.of(Field::kTags) == Strings{"document"});
  CHECK(terms.of(Field::kScenes) == Strings{"办公"});
}

}  // namespace
}  // namespace skillnode::discovery::text
