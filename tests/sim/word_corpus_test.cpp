// The words workload's corpus generator (sim/workloads/word_corpus.h, issue 47): its words
// are distinct terms, none a prefix of another, and its skills and queries follow the laws the
// scenario asks for (Zipf-Mandelbrot words, hot words in their share, query lengths).
#include "sim/workloads/word_corpus.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "discovery/text/analyzer.h"

namespace skillnode::sim {
namespace {

using workloads::WordCorpus;

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at < text.size()) {
    const size_t space = std::min(text.find(' ', at), text.size());
    words.push_back(text.substr(at, space - at));
    at = space + 1;
  }
  return words;
}

TEST_CASE("generated words are distinct terms, none a prefix of another", "[unit]") {
  scenario::WordsSpec spec;
  spec.vocabulary = 3000;
  spec.hot_terms = 5;
  const WordCorpus corpus(spec, 10, 7);
  REQUIRE(corpus.words().size() == 3000);
  REQUIRE(corpus.hot_words().size() == 5);
  auto analyzer = discovery::text::Analyzer::Create();
  REQUIRE(analyzer);
  std::set<std::string> terms;
  const auto check = [&](const std::vector<std::string>& words) {
    for (const std::string& word : words) {
      const std::vector<std::string> analysed = analyzer->Analyze(word);
      REQUIRE(analysed.size() == 1);
      CHECK(terms.insert(analysed.front()).second);
    }
  };
  check(corpus.words());
  check(corpus.hot_words());
  // Sorted, a prefix would sit right before a term it begins.
  for (auto it = terms.begin(); std::next(it) != terms.end(); ++it) {
    INFO(*it << " / " << *std::next(it));
    CHECK_FALSE(std::next(it)->starts_with(*it));
  }
  // The same seed makes the same corpus; another seed another.
  CHECK(WordCorpus(spec, 10, 7).words() == corpus.words());
  CHECK(WordCorpus(spec, 10, 8).words() != corpus.words());
}

TEST_CASE("skills draw words by the Zipf law and carry each hot word in its share", "[unit]") {
  scenario::WordsSpec spec;
  spec.vocabulary = 500;
  spec.zipf_exponent = 1.0;
  spec.zipf_offset = 0;
  spec.hot_terms = 2;
  spec.hot_share = 0.1;
  const size_t skills = 6000;
  const WordCorpus corpus(spec, skills, 11);
  std::map<std::string, size_t> rank_of;
  for (size_t r = 0; r < corpus.words().size(); ++r) rank_of[corpus.words()[r]] = r;
  std::vector<double> count(corpus.words().size());
  std::vector<size_t> hot_skills(2);
  double drawn = 0;
  for (const workloads::CorpusSkill& skill : corpus.skills()) {
    const std::vector<std::string> name = Split(skill.name);
    CHECK(name.size() >= workloads::kCorpusNameWordsMin);
    CHECK(name.size() <= workloads::kCorpusNameWordsMax);
    std::vector<std::string> words = Split(skill.description);
    size_t hot_here = 0;
    for (size_t h = 0; h < 2; ++h) {
      const bool has = std::count(words.begin(), words.end(), corpus.hot_words()[h]) == 1;
      hot_skills[h] += has;
      hot_here += has;
    }
    CHECK(words.size() - hot_here >= workloads::kCorpusDescriptionWordsMin);
    CHECK(words.size() - hot_here <= workloads::kCorpusDescriptionWordsMax);
    words.insert(words.end(), name.begin(), name.end());
    for (const std::string& w : words) {
      const auto it = rank_of.find(w);
      if (it == rank_of.end()) continue;  // a hot word
      ++count[it->second];
      ++drawn;
    }
  }
  // p(r) = (1 / r) / H_500, H_500 = 6.793: rank 1 about 14.7 % of draws, rank 2 half that.
  const double harmonic = 6.7928;
  for (size_t r : {1, 2, 5, 20}) {
    const double expected = 1.0 / (static_cast<double>(r) * harmonic);
    INFO("rank " << r);
    CHECK(count[r - 1] / drawn == Approx(expected).epsilon(0.1));
  }
  // The log-log slope over ranks 1..50 is the exponent.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = 50;
  for (size_t r = 1; r <= 50; ++r) {
    const double x = std::log(static_cast<double>(r));
    const double y = std::log(count[r - 1] / drawn);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  CHECK((n * sxy - sx * sy) / (n * sxx - sx * sx) == Approx(-1.0).margin(0.08));
  // Each hot word in 10 % of 6,000 skills: 600 +- 23 (one sigma).
  for (size_t h = 0; h < 2; ++h) {
    CHECK(static_cast<double>(hot_skills[h]) / skills == Approx(0.1).margin(0.012));
  }
  // Queries: 1 to 3 distinct words, a fifth of them with a hot word.
  transport::Rng rng(3);
  size_t hot = 0;
  std::vector<size_t> lengths(4);
  for (int i = 0; i < 2000; ++i) {
    const workloads::CorpusQuery q = corpus.DrawQuery(rng);
    const std::vector<std::string> words = Split(q.text);
    REQUIRE(words.size() >= 1);
    REQUIRE(words.size() <= 3);
    ++lengths[words.size()];
    CHECK(std::set<std::string>(words.begin(), words.end()).size() == words.size());
    hot += q.hot;
    const bool has_hot = std::any_of(words.begin(), words.end(), [&](const std::string& w) {
      return std::find(corpus.hot_words().begin(), corpus.hot_words().end(), w) !=
             corpus.hot_words().end();
    });
    CHECK(has_hot == q.hot);
  }
  CHECK(hot / 2000.0 == Approx(0.2).margin(0.03));
  for (size_t words = 1; words <= 3; ++words)
    CHECK(lengths[words] / 2000.0 == Approx(1.0 / 3).margin(0.04));
}

}  // namespace
}  // namespace skillnode::sim
