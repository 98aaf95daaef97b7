// IndexTermsOf (discovery/index_terms.h): the weighted terms a record is published under, in
// hundredths, most distinctive first.
#include "discovery/index_terms.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/store/record/term_pointer.h"
#include "support/records.h"

namespace skillnode::discovery {
namespace {

using kademlia::store::IndexTerm;

const IndexTerm* Find(const std::vector<IndexTerm>& terms, const std::string& term) {
  const auto it =
      std::find_if(terms.begin(), terms.end(), [&](const IndexTerm& t) { return t.term == term; });
  return it == terms.end() ? nullptr : &*it;
}

TEST_CASE("a record is indexed under its analysed words, weighted in hundredths (BM25F's tf~)",
          "[unit]") {
  text::Analyzer analyzer = text::Analyzer::Create().value();
  const text::TermExtractor extractor;
  kademlia::store::SkillRecord record = testing::SampleRecord();
  record.capabilities = {"calendar"};
  record.scenes = {};
  record.descriptor = kademlia::store::SkillDescriptor{};
  record.descriptor->name = "Team calendar";
  record.descriptor->description = "Books meetings.";
  const std::vector<IndexTerm> terms = IndexTermsOf(analyzer, extractor, record);
  // Each field's weight over its normalisation 0.25 + 0.75 * length / typical length:
  // "calendar": the name (2 terms of a typical 3: 3 / 0.75 = 4) and the capabilities (1 of 4:
  // 3 / 0.4375 = 6.857), 10.857; "team": the name, 4; "book": the description (2 of 16:
  // 1 / 0.34375 = 2.909).
  REQUIRE(Find(terms, "calendar") != nullptr);
  CHECK(Find(terms, "calendar")->weight_centi == 1086);
  REQUIRE(Find(terms, "team") != nullptr);
  CHECK(Find(terms, "team")->weight_centi == 400);
  REQUIRE(Find(terms, "book") != nullptr);
  CHECK(Find(terms, "book")->weight_centi == 291);
  CHECK(terms.front().term == "calendar");  // the heaviest first
}

TEST_CASE("a weight past the pointer's limit is clamped and a tombstone has no terms", "[unit]") {
  text::Analyzer analyzer = text::Analyzer::Create().value();
  text::TermExtractorConfig config;
  config.bm25.field_weights.name = 1000.0;  // 3 x 1000.00: past kTermWeightCentiMax (100.00)
  const text::TermExtractor extractor(config);
  kademlia::store::SkillRecord record = testing::FullRecord();
  record.descriptor->name = "feishu feishu feishu";
  const std::vector<IndexTerm> terms = IndexTermsOf(analyzer, extractor, record);
  REQUIRE(Find(terms, "feishu") != nullptr);
  CHECK(Find(terms, "feishu")->weight_centi == kademlia::store::kTermWeightCentiMax);
  record.tombstone = true;
  CHECK(IndexTermsOf(analyzer, extractor, record).empty());
}

}  // namespace
}  // namespace skillnode::discovery
