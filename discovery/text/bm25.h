// Bm25: ranks skills for a query with BM25F (Robertson, Zaragoza and Taylor, "Simple BM25
// extension to multiple weighted fields", 2004) over their fields (docs/search.md).
//
// For a query term t and a document d:
//   tf~(t, d) = sum over fields f of  w_f * tf(t, f) / (1 - b_f + b_f * len_f / avglen_f)
//   idf(t)    = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
//   score(d)  = sum over distinct query terms t of  idf(t) * tf~ * (k1 + 1) / (tf~ + k1)
// w_f is the field's weight (FieldWeights), b_f its length normalisation, len_f the field's
// number of terms, avglen_f its average over the corpus (no normalisation when that is 0).
// The idf is Lucene's, never negative: a term in every document still counts a little. A query
// term repeated counts once.
//
// The corpus statistics (N, df, avglen) come from the caller. At the reader the corpus is the
// candidates fetched for a query: CorpusStats::Of computes them from those; a caller that knows
// the network's figures (say, the number of pointers under a term) passes those instead. A df
// above N is taken as N; a term missing from the statistics as df 0.
//
// Rank orders by score, highest first, and ties by the documents' order as given: the caller
// gives them in a deterministic order (say, by record key). Pure; holds its configuration only.
#ifndef SKILLNODE_DISCOVERY_TEXT_BM25_H_
#define SKILLNODE_DISCOVERY_TEXT_BM25_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/text/skill_fields.h"

namespace skillnode::discovery::text {

struct Bm25Config {
  static constexpr double kK1Default = 1.2;  // the usual range is 1.2 to 2.0
  static constexpr double kBDefault = 0.75;  // the usual value; 0 turns length off

  double k1 = kK1Default;  // how quickly more occurrences of a term stop adding to its score
  FieldWeights field_weights;
  PerField<double> b = {kBDefault, kBDefault, kBDefault, kBDefault, kBDefault};
};

struct CorpusStats {
  uint64_t document_count = 0;
  std::map<std::string, uint64_t, std::less<>> document_frequency;
  PerField<double> average_field_length = {};

  // The statistics of `documents` themselves.
  static CorpusStats Of(std::span<const FieldedTerms> documents);
};

struct RankedDocument {
  size_t index = 0;  // into the documents given to Rank
  double score = 0;

  bool operator==(const RankedDocument&) const = default;
};

class Bm25 {
 public:
  explicit Bm25(Bm25Config config = {});

  double Idf(std::string_view term, const CorpusStats& stats) const;
  // tf~(t, d) above, with `average_field_length` as avglen (a field's 0: not normalised); 0
  // when the document lacks the term. The publisher weighs its pointers so (TermExtractor).
  double TermFrequency(std::string_view term, const FieldedTerms& document,
                       const PerField<double>& average_field_length) const;
  double Score(std::span<const std::string> query, const FieldedTerms& document,
               const CorpusStats& stats) const;
  // Every document with its score, best first, ties in the order given.
  std::vector<RankedDocument> Rank(std::span<const std::string> query,
                                   std::span<const FieldedTerms> documents,
                                   const CorpusStats& stats) const;

  const Bm25Config& config() const { return config_; }

 private:
  // Each field's 1 - b + b * len / avglen (1 where avglen is 0).
  PerField<double> LengthNorms(const FieldedTerms& document,
                               const PerField<double>& average_field_length) const;
  double PseudoFrequency(std::string_view term, const FieldedTerms& document,
                         const PerField<double>& norm) const;

  Bm25Config config_;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_BM25_H_
