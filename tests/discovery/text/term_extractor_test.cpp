// TermExtractor: weights per field, the bound per skill and the order of the most distinctive.
#include "discovery/text/term_extractor.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "discovery/text/analyzer.h"

namespace skillnode::discovery::text {
namespace {

FieldedTerms Fields(std::vector<std::string> name, std::vector<std::string> description) {
  FieldedTerms terms;
  terms.fields[Index(Field::kName)] = std::move(name);
  terms.fields[Index(Field::kDescription)] = std::move(description);
  return terms;
}

// No length normalisation (b 0 for every field): a weight is the plain sum of field weights.
TermExtractorConfig Unnormalised() {
  TermExtractorConfig config;
  config.bm25.b = {0, 0, 0, 0, 0};
  return config;
}

std::vector<std::string> TermsOf(const std::vector<WeightedTerm>& weighted) {
  std::vector<std::string> terms;
  for (const WeightedTerm& term : weighted) terms.push_back(term.term);
  return terms;
}

TEST_CASE("a term's weight sums its field weight over each occurrence", "[unit]") {
  FieldedTerms terms = Fields({"pdf", "tool"}, {"pdf", "pdf", "fast"});
  terms.fields[Index(Field::kCapabilities)] = {"summar"};
  terms.fields[Index(Field::kTags)] = {"pdf"};
  terms.fields[Index(Field::kScenes)] = {"office"};
  // Every field exactly as long as the typical one: each normalisation is 1.
  TermExtractorConfig config;
  config.typical_field_length = {2, 3, 1, 1, 1};
  // pdf: name 3 + description 1 + 1 + tag 2 = 7; summar: capability 3; tool: name 3;
  // office: scene 1.5; fast: description 1. Equal weights: longer first (summar before tool).
  CHECK(TermExtractor(config).Extract(terms) ==
        std::vector<WeightedTerm>{
            {"pdf", 7}, {"summar", 3}, {"tool", 3}, {"office", 1.5}, {"fast", 1}});
}

TEST_CASE("a term weighs more in a field shorter than the typical one (BM25F's tf~)", "[unit]") {
  // The defaults: description typical length 16, b 0.75, weight 1.
  std::vector<std::string> short_text = {"pdf", "a", "b", "c", "d", "e", "f", "g"};  // 8 terms
  std::vector<std::string> long_text = short_text;
  for (int i = 0; i < 24; ++i) long_text.push_back("w" + std::to_string(i));  // 32 terms
  const TermExtractor extractor;
  const auto weight_of = [&extractor](const std::vector<std::string>& description) {
    for (const WeightedTerm& t : extractor.Extract(Fields({}, description))) {
      if (t.term == "pdf") return t.weight;
    }
    return 0.0;
  };
  // 1 / (0.25 + 0.75 * 8 / 16) = 1.6; 1 / (0.25 + 0.75 * 32 / 16) = 1 / 1.75.
  CHECK(weight_of(short_text) == Approx(1.6));
  CHECK(weight_of(long_text) == Approx(1.0 / 1.75));
  // The name's normalisation, typical length 3: "pdf" alone is 3 / (0.25 + 0.75 / 3) = 6.
  CHECK(extractor.Extract(Fields({"pdf"}, {})) == std::vector<WeightedTerm>{{"pdf", 6}});
}

TEST_CASE("the field weights are configurable, and a field weighted 0 is not indexed", "[unit]") {
  TermExtractorConfig config = Unnormalised();
  config.bm25.field_weights.description = 5;
  config.bm25.field_weights.name = 0;
  CHECK(TermExtractor(config).Extract(Fields({"pdf", "tool"}, {"fast"})) ==
        std::vector<WeightedTerm>{{"fast", 5}});
}

TEST_CASE("a skill keeps at most terms_per_skill_max terms, the heaviest", "[unit]") {
  std::vector<std::string> description;
  for (int i = 0; i < 100; ++i) description.push_back("word" + std::to_string(i));
  const FieldedTerms terms = Fields({"calendar"}, description);
  const std::vector<WeightedTerm> extracted = TermExtractor(Unnormalised()).Extract(terms);
  REQUIRE(extracted.size() == TermExtractorConfig::kTermsPerSkillMax);
  CHECK(extracted[0] == WeightedTerm{"calendar", 3});

  TermExtractorConfig config = Unnormalised();
  config.terms_per_skill_max = 2;
  CHECK(TermExtractor(config).Extract(Fields({"pdf"}, {"a", "bb", "pdf"})) ==
        std::vector<WeightedTerm>{{"pdf", 4}, {"bb", 1}});
}

TEST_CASE("among equal weights the rarer term by the caller's hint is kept first", "[unit]") {
  const std::map<std::string, uint64_t> frequency = {{"data", 5000}, {"api", 4000}, {"feishu", 3}};
  const TermExtractor::DocumentFrequencyHint hint =
      [&frequency](std::string_view term) -> std::optional<uint64_t> {
    const auto it = frequency.find(std::string(term));
    if (it == frequency.end()) return std::nullopt;
    return it->second;
  };
  TermExtractorConfig config;
  config.terms_per_skill_max = 3;
  // "unseen" is unknown to the hint: counted as 0, never seen, so the rarest.
  const FieldedTerms terms = Fields({}, {"data", "api", "feishu", "unseen"});
  CHECK(TermsOf(TermExtractor(config).Extract(terms, hint)) ==
        std::vector<std::string>{"unseen", "feishu", "api"});
  // Without a hint, the longer terms: "feishu" and "unseen" (6 bytes, byte-wise), then "data".
  CHECK(TermsOf(TermExtractor(config).Extract(terms)) ==
        std::vector<std::string>{"feishu", "unseen", "data"});
}

TEST_CASE("extraction is deterministic whatever the order of the terms", "[unit]") {
  const TermExtractor extractor;
  CHECK(extractor.Extract(Fields({"b", "a"}, {"d", "c", "c"})) ==
        extractor.Extract(Fields({"a", "b"}, {"c", "d", "c"})));
}

TEST_CASE("a skill's text is analysed before its terms are weighted", "[unit]") {
  transport::Result<Analyzer> analyzer = Analyzer::Create();
  REQUIRE(analyzer.has_value());
  SkillText skill;
  skill.name = "Feishu Calendar";
  skill.description = "Reads and writes Feishu calendars";
  skill.capabilities = {"calendar.read"};
  // calendar: name 3 + description 1 + capability 3 = 7; feishu: 3 + 1 = 4; read: 1 + 3 = 4;
  // write: 1. "feishu" is longer than "read".
  CHECK(TermExtractor(Unnormalised()).Extract(*analyzer, skill) ==
        std::vector<WeightedTerm>{{"calendar", 7}, {"feishu", 4}, {"read", 4}, {"write", 1}});
}

}  // namespace
}  // namespace skillnode::discovery::text
