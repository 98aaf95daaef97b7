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

TEST_CASE("a record is indexed under its analysed words, weighted in hundredths by field",
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
  // "calendar": in the name (3) and the capabilities (3); "team": the name; "book": described.
  REQUIRE(Find(terms, "calendar") != nullptr);
  CHECK(Find(terms, "calendar")->weight_centi == 600);
  REQUIRE(Find(terms, "team") != nullptr);
  CHECK(Find(terms, "team")->weight_centi == 300);
  REQUIRE(Find(terms, "book") != nullptr);
  CHECK(Find(terms, "book")->weight_centi == 100);
  CHECK(terms.front().term == "calendar");  // the heaviest first
}

TEST_CASE("a weight past the pointer's limit is clamped and a tombstone has no terms", "[unit]") {
  text::Analyzer analyzer = text::Analyzer::Create().value();
  text::TermExtractorConfig config;
  config.field_weights.name = 1000.0;  // 3 x 1000.00: past kTermWeightCentiMax (100.00)
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
