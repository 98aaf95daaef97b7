// WordCorpus (word_corpus.h): the vocabulary, the Zipf law and the skills, from one seed.
#include "sim/workloads/word_corpus.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <iterator>
#include <set>
#include <string_view>

namespace skillnode::sim::workloads {
namespace {

// Onsets, vowels and final consonants the words are built of. The finals avoid the letters the
// English stemmer strips as suffixes ("s", "y", "e" endings), so most words are their own stem.
constexpr std::array<std::string_view, 15> kOnsets = {"b", "d", "f", "g", "k", "l",  "m", "n",
                                                      "p", "r", "t", "v", "z", "br", "tr"};
constexpr std::array<std::string_view, 5> kVowels = {"a", "e", "i", "o", "u"};
constexpr std::array<std::string_view, 6> kFinals = {"k", "l", "m", "n", "r", "t"};

discovery::text::Analyzer MakeAnalyzer() {
  auto analyzer = discovery::text::Analyzer::Create();
  assert(analyzer.has_value());  // the default language is always there
  return std::move(*analyzer);
}

// Whether `term` is a prefix of a term of `terms`, or one of them is a prefix of it (equal
// included).
bool PrefixClash(const std::set<std::string, std::less<>>& terms, const std::string& term) {
  const auto next = terms.lower_bound(term);
  if (next != terms.end() && next->starts_with(term)) return true;  // equal, or term begins it
  if (next == terms.begin()) return false;
  // The greatest term below `term`: the only one that can be a prefix of it.
  return term.starts_with(*std::prev(next));
}

}  // namespace

WordCorpus::WordCorpus(const scenario::WordsSpec& spec, size_t skills, uint64_t seed)
    : spec_(spec), analyzer_(MakeAnalyzer()) {
  transport::Rng rng(seed);
  MakeVocabulary(rng);
  cumulative_.resize(words_.size());
  double total = 0;
  for (size_t rank = 1; rank <= words_.size(); ++rank) {
    total += 1.0 / std::pow(static_cast<double>(rank) + spec_.zipf_offset, spec_.zipf_exponent);
    cumulative_[rank - 1] = total;
  }
  for (double& c : cumulative_) c /= total;
  cumulative_.back() = 1.0;
  skills_.reserve(skills);
  for (size_t i = 0; i < skills; ++i) {
    CorpusSkill skill;
    skill.name =
        Words(rng, static_cast<size_t>(rng.Between(kCorpusNameWordsMin, kCorpusNameWordsMax)));
    std::vector<std::string> description;
    const auto length =
        static_cast<size_t>(rng.Between(kCorpusDescriptionWordsMin, kCorpusDescriptionWordsMax));
    for (size_t w = 0; w < length; ++w) description.push_back(words_[DrawRank(rng)]);
    for (const std::string& hot : hot_words_) {
      if (!rng.Chance(spec_.hot_share)) continue;
      const auto at = static_cast<std::ptrdiff_t>(rng.Below(description.size() + 1));
      description.insert(description.begin() + at, hot);
    }
    for (const std::string& word : description) {
      if (!skill.description.empty()) skill.description += ' ';
      skill.description += word;
    }
    skills_.push_back(std::move(skill));
  }
}

std::string WordCorpus::DrawWord(transport::Rng& rng, size_t syllables) const {
  std::string word;
  for (size_t s = 0; s < syllables; ++s) {
    word += kOnsets[rng.Below(kOnsets.size())];
    word += kVowels[rng.Below(kVowels.size())];
  }
  word += kFinals[rng.Below(kFinals.size())];
  return word;
}

void WordCorpus::MakeVocabulary(transport::Rng& rng) {
  std::set<std::string, std::less<>> terms;
  const size_t wanted = spec_.vocabulary + spec_.hot_terms;
  const size_t attempts_max = wanted * kCorpusWordAttemptsPerWord;
  std::vector<std::string> words;
  std::vector<std::string> word_terms;
  for (size_t attempt = 0; words.size() < wanted; ++attempt) {
    assert(attempt < attempts_max);  // the syllables give hundreds of thousands of words
    (void)attempts_max;
    const auto syllables =
        static_cast<size_t>(rng.Between(kCorpusSyllablesMin, kCorpusSyllablesMax));
    std::string word = DrawWord(rng, syllables);
    const std::vector<std::string> analysed = analyzer_.Analyze(word);
    if (analysed.size() != 1 || PrefixClash(terms, analysed.front())) continue;
    terms.insert(analysed.front());
    words.push_back(std::move(word));
    word_terms.push_back(analysed.front());
  }
  // The first hot_terms words drawn are the hot ones; the others are the vocabulary by rank.
  hot_words_.assign(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(spec_.hot_terms));
  hot_terms_.assign(word_terms.begin(),
                    word_terms.begin() + static_cast<std::ptrdiff_t>(spec_.hot_terms));
  words_.assign(words.begin() + static_cast<std::ptrdiff_t>(spec_.hot_terms), words.end());
  word_terms_.assign(word_terms.begin() + static_cast<std::ptrdiff_t>(spec_.hot_terms),
                     word_terms.end());
}

size_t WordCorpus::DrawRank(transport::Rng& rng) const {
  const double u = rng.NextDouble();
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
  return std::min(static_cast<size_t>(it - cumulative_.begin()), cumulative_.size() - 1);
}

std::string WordCorpus::Words(transport::Rng& rng, size_t count) const {
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    if (!text.empty()) text += ' ';
    text += words_[DrawRank(rng)];
  }
  return text;
}

CorpusQuery WordCorpus::DrawQuery(transport::Rng& rng) const {
  const auto count =
      static_cast<size_t>(rng.Between(1, static_cast<int64_t>(spec_.query_words_max)));
  std::vector<std::string> picked;
  // Distinct words: a repeated word would be one term (QueryTerms keeps terms distinct).
  while (picked.size() < std::min(count, words_.size())) {
    std::string word = words_[DrawRank(rng)];
    if (std::find(picked.begin(), picked.end(), word) == picked.end()) {
      picked.push_back(std::move(word));
    }
  }
  CorpusQuery query;
  if (!hot_words_.empty() && rng.Chance(spec_.hot_query_share)) {
    picked[rng.Below(picked.size())] = hot_words_[rng.Below(hot_words_.size())];
    query.hot = true;
  }
  for (const std::string& word : picked) {
    if (!query.text.empty()) query.text += ' ';
    query.text += word;
  }
  return query;
}

}  // namespace skillnode::sim::workloads
