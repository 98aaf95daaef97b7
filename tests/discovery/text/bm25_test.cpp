// Bm25: scores against hand-computed BM25F values, IDF, field weights, length normalisation,
// corpus statistics from candidates, and deterministic ties.
#include "discovery/text/bm25.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

namespace skillnode::discovery::text {
namespace {

using Strings = std::vector<std::string>;

FieldedTerms Doc(Strings name, Strings description) {
  FieldedTerms terms;
  terms.fields[Index(Field::kName)] = std::move(name);
  terms.fields[Index(Field::kDescription)] = std::move(description);
  return terms;
}

CorpusStats Stats(uint64_t documents, std::map<std::string, uint64_t, std::less<>> frequency) {
  CorpusStats stats;
  stats.document_count = documents;
  stats.document_frequency = std::move(frequency);
  return stats;
}

TEST_CASE("the idf follows ln(1 + (N - df + 0.5) / (df + 0.5)) and is never negative", "[unit]") {
  const Bm25 bm25;
  const CorpusStats stats = Stats(10, {{"pdf", 1}, {"data", 10}, {"odd", 50}});
  // N = 10, df = 1: ln(1 + 9.5 / 1.5) = ln(22 / 3) = 1.99243
  CHECK(bm25.Idf("pdf", stats) == Approx(1.99243).epsilon(1e-5));
  // df = N: ln(1 + 0.5 / 10.5) = 0.04652, small but positive
  CHECK(bm25.Idf("data", stats) == Approx(0.04652).epsilon(1e-3));
  // df above N is taken as N; a term missing is df 0: ln(1 + 10.5 / 0.5) = ln 22 = 3.09104
  CHECK(bm25.Idf("odd", stats) == bm25.Idf("data", stats));
  CHECK(bm25.Idf("missing", stats) == Approx(3.09104).epsilon(1e-5));
}

TEST_CASE("a score without length normalisation matches the hand-computed BM25F value", "[unit]") {
  Bm25Config config;
  config.k1 = 1.0;
  config.b = {0, 0, 0, 0, 0};
  config.field_weights.name = 2;
  config.field_weights.description = 1;
  // tf~ = w_name * 1 + w_description * 1 = 2 + 1 = 3 (b = 0: no normalisation)
  // score = idf * tf~ * (k1 + 1) / (tf~ + k1) = 1.99243 * 3 * 2 / 4 = 1.99243 * 1.5 = 2.98865
  const FieldedTerms document = Doc({"pdf"}, {"pdf", "tool"});
  const CorpusStats stats = Stats(10, {{"pdf", 1}, {"tool", 4}});
  CHECK(Bm25(config).Score(Strings{"pdf"}, document, stats) == Approx(2.98865).epsilon(1e-5));
  // A query term repeated counts once; a query term not in the document adds nothing.
  CHECK(Bm25(config).Score(Strings{"pdf", "pdf", "absent"}, document, stats) ==
        Approx(2.98865).epsilon(1e-5));
}

TEST_CASE("a long field counts a term for less, as the hand-computed value says", "[unit]") {
  const Bm25 bm25;  // k1 = 1.2, b = 0.75, description weight 1
  CorpusStats stats = Stats(10, {{"pdf", 1}});
  stats.average_field_length[Index(Field::kDescription)] = 4;
  // Description of 8 terms, average 4: norm = 1 - 0.75 + 0.75 * 8 / 4 = 1.75
  // tf~ = 1 * 1 / 1.75 = 0.571429
  // score = 1.99243 * 0.571429 * 2.2 / (0.571429 + 1.2) = 1.41398
  const FieldedTerms long_one = Doc({}, {"pdf", "a", "b", "c", "d", "e", "f", "g"});
  CHECK(bm25.Score(Strings{"pdf"}, long_one, stats) == Approx(1.41398).epsilon(1e-5));
  // Description of 2 terms: norm = 0.25 + 0.75 * 2 / 4 = 0.625, tf~ = 1.6,
  // score = 1.99243 * 1.6 * 2.2 / 2.8 = 2.50477
  CHECK(bm25.Score(Strings{"pdf"}, Doc({}, {"pdf", "a"}), stats) == Approx(2.50477).epsilon(1e-5));
}

TEST_CASE("TermFrequency is tf~ over the fields with the averages given", "[unit]") {
  const Bm25 bm25;  // name weight 3, description 1, b = 0.75
  PerField<double> average = {};
  average[Index(Field::kName)] = 2;
  average[Index(Field::kDescription)] = 4;
  // name of 1 term, average 2: norm 0.625, 3 / 0.625 = 4.8; description of 8 terms, average 4:
  // norm 1.75, twice: 2 / 1.75 = 1.142857; tf~ = 5.942857
  const FieldedTerms document = Doc({"pdf"}, {"pdf", "pdf", "c", "d", "e", "f", "g", "h"});
  CHECK(bm25.TermFrequency("pdf", document, average) == Approx(5.942857).epsilon(1e-6));
  CHECK(bm25.TermFrequency("c", document, average) == Approx(1 / 1.75).epsilon(1e-6));
  CHECK(bm25.TermFrequency("absent", document, average) == 0);
  // No average for a field: not normalised there.
  CHECK(bm25.TermFrequency("pdf", document, PerField<double>{}) == Approx(5.0));
}

TEST_CASE("a rarer term outranks a common one", "[unit]") {
  const std::vector<FieldedTerms> documents = {Doc({"data"}, {}), Doc({"feishu"}, {})};
  const CorpusStats stats = Stats(1000, {{"data", 400}, {"feishu", 2}});
  const std::vector<RankedDocument> ranked =
      Bm25().Rank(Strings{"data", "feishu"}, documents, stats);
  REQUIRE(ranked.size() == 2);
  CHECK(ranked[0].index == 1);
  CHECK(ranked[0].score > ranked[1].score);
}

TEST_CASE("field weights decide between a term in the name and one in the description", "[unit]") {
  const std::vector<FieldedTerms> documents = {Doc({"other"}, {"pdf"}), Doc({"pdf"}, {"other"})};
  const CorpusStats stats = CorpusStats::Of(documents);
  CHECK(Bm25().Rank(Strings{"pdf"}, documents, stats)[0].index == 1);
  Bm25Config config;
  config.field_weights.name = 1;
  config.field_weights.description = 3;
  CHECK(Bm25(config).Rank(Strings{"pdf"}, documents, stats)[0].index == 0);
}

TEST_CASE("documents that score alike keep the order they were given in", "[unit]") {
  const std::vector<FieldedTerms> documents = {Doc({"x"}, {}), Doc({"pdf"}, {}), Doc({"pdf"}, {}),
                                               Doc({"y"}, {})};
  const std::vector<RankedDocument> ranked =
      Bm25().Rank(Strings{"pdf"}, documents, CorpusStats::Of(documents));
  REQUIRE(ranked.size() == 4);
  CHECK(ranked[0].index == 1);
  CHECK(ranked[1].index == 2);
  CHECK(ranked[2] == RankedDocument{0, 0});
  CHECK(ranked[3] == RankedDocument{3, 0});
}

TEST_CASE("corpus statistics of the fetched candidates count documents, not occurrences",
          "[unit]") {
  const std::vector<FieldedTerms> documents = {Doc({"pdf", "pdf"}, {"pdf", "tool", "x"}),
                                               Doc({"tool"}, {})};
  const CorpusStats stats = CorpusStats::Of(documents);
  CHECK(stats.document_count == 2);
  CHECK(stats.document_frequency.at("pdf") == 1);
  CHECK(stats.document_frequency.at("tool") == 2);
  CHECK(stats.average_field_length[Index(Field::kName)] == 1.5);         // (2 + 1) / 2
  CHECK(stats.average_field_length[Index(Field::kDescription)] == 1.5);  // (3 + 0) / 2
  CHECK(stats.average_field_length[Index(Field::kTags)] == 0);
  CHECK(CorpusStats::Of({}).document_count == 0);
}

}  // namespace
}  // namespace skillnode::discovery::text
