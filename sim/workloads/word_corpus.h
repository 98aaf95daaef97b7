// WordCorpus: the skills of a scenario with `words` (word_workload.h), generated from its seed.
//
// A vocabulary of `vocabulary` words and `hot_terms` hot words, all built from syllables
// (consonant-vowel pairs and a final consonant: "tobrakel"), each kept only when the text
// analysis (discovery/text Analyzer: stop words, British spellings, the Snowball stemmer) makes
// it exactly one term of its own that is no prefix of another word's term and has none as a
// prefix. So every word is one distinct term, and the query rule that the last word also matches
// as a prefix (text::QueryTerms) matches nothing but the word itself: an oracle matching whole
// terms and WordSearch answer the same set of skills.
//
// Skill i has a name of 2-3 words and a description of 8-20 words, each drawn from the
// vocabulary by the Zipf(-Mandelbrot) law p(rank r) ~ 1 / (r + offset)^exponent (rank 1 the
// most common), repeats allowed; and each hot word, with probability hot_share, inserted at a
// random place of its description, so each is in about hot_share of all skills. Queries draw
// their words by the same law (DrawQuery).
//
// Everything is drawn from the seed given, in a fixed order: one seed, one corpus. Immutable
// once made; the draws of queries come from the caller's Rng. Not thread-safe (owns an Analyzer).
#ifndef SKILLNODE_SIM_WORKLOADS_WORD_CORPUS_H_
#define SKILLNODE_SIM_WORKLOADS_WORD_CORPUS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "discovery/text/analyzer.h"
#include "sim/scenario/scenario.h"
#include "transport/rng.h"

namespace skillnode::sim::workloads {

// Name and description lengths, in words (hot words come on top of the description's).
constexpr size_t kCorpusNameWordsMin = 2;
constexpr size_t kCorpusNameWordsMax = 3;
constexpr size_t kCorpusDescriptionWordsMin = 8;
constexpr size_t kCorpusDescriptionWordsMax = 20;
// Syllables per word before the final consonant: 2 or 3 (about 75^3 words to choose from).
constexpr size_t kCorpusSyllablesMin = 2;
constexpr size_t kCorpusSyllablesMax = 3;
// Candidate words drawn per word kept, at most, before generation gives up (asserted): the
// analysis rejects a few, prefixes a few more.
constexpr size_t kCorpusWordAttemptsPerWord = 64;

struct CorpusSkill {
  std::string name;
  std::string description;
};

struct CorpusQuery {
  std::string text;  // words separated by spaces
  bool hot = false;  // one of its words is a hot word
};

class WordCorpus {
 public:
  // `skills` skills as `spec` asks, drawn from `seed`.
  WordCorpus(const scenario::WordsSpec& spec, size_t skills, uint64_t seed);

  const std::vector<CorpusSkill>& skills() const { return skills_; }
  // The vocabulary, most common first (rank r is words()[r - 1]), and the hot words.
  const std::vector<std::string>& words() const { return words_; }
  const std::vector<std::string>& hot_words() const { return hot_words_; }
  // The term each word analyses to, by the same index.
  const std::vector<std::string>& word_terms() const { return word_terms_; }
  const std::vector<std::string>& hot_terms() const { return hot_terms_; }

  // A vocabulary index drawn by the Zipf law.
  size_t DrawRank(transport::Rng& rng) const;
  // A query of 1..query_words_max distinct words (uniform), each drawn by the law; with
  // probability hot_query_share one of them (drawn uniformly) is replaced by a hot word.
  CorpusQuery DrawQuery(transport::Rng& rng) const;

 private:
  // Fills words_ and hot_words_ with words that analyse to distinct, prefix-free terms.
  void MakeVocabulary(transport::Rng& rng);
  std::string DrawWord(transport::Rng& rng, size_t syllables) const;
  std::string Words(transport::Rng& rng, size_t count) const;

  scenario::WordsSpec spec_;
  discovery::text::Analyzer analyzer_;
  std::vector<std::string> words_;
  std::vector<std::string> word_terms_;
  std::vector<std::string> hot_words_;
  std::vector<std::string> hot_terms_;
  std::vector<double> cumulative_;  // of the Zipf law, by rank; the last is 1
  std::vector<CorpusSkill> skills_;
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_WORD_CORPUS_H_
