// Bm25: BM25F scores from fielded terms and caller-given corpus statistics.
#include "discovery/text/bm25.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <set>
#include <utility>

namespace skillnode::discovery::text {

CorpusStats CorpusStats::Of(std::span<const FieldedTerms> documents) {
  CorpusStats stats;
  stats.document_count = documents.size();
  PerField<double> total_length = {};
  for (const FieldedTerms& document : documents) {
    std::set<std::string_view> distinct;
    for (Field field : kFields) {
      total_length[Index(field)] += static_cast<double>(document.of(field).size());
      for (const std::string& term : document.of(field)) distinct.insert(term);
    }
    for (std::string_view term : distinct) ++stats.document_frequency[std::string(term)];
  }
  if (!documents.empty()) {
    for (Field field : kFields) {
      stats.average_field_length[Index(field)] =
          total_length[Index(field)] / static_cast<double>(documents.size());
    }
  }
  return stats;
}

Bm25::Bm25(Bm25Config config) : config_(std::move(config)) {
  assert(config_.k1 >= 0);
  for (double b : config_.b) assert(b >= 0 && b <= 1);
}

double Bm25::Idf(std::string_view term, const CorpusStats& stats) const {
  const auto it = stats.document_frequency.find(term);
  const uint64_t frequency =
      std::min(it == stats.document_frequency.end() ? 0 : it->second, stats.document_count);
  const double n = static_cast<double>(stats.document_count);
  const double df = static_cast<double>(frequency);
  return std::log(1.0 + (n - df + 0.5) / (df + 0.5));
}

PerField<double> Bm25::LengthNorms(const FieldedTerms& document,
                                   const PerField<double>& average_field_length) const {
  PerField<double> norm = {};
  for (Field field : kFields) {
    const double b = config_.b[Index(field)];
    const double average = average_field_length[Index(field)];
    const double length = static_cast<double>(document.of(field).size());
    norm[Index(field)] = average > 0 ? 1.0 - b + b * length / average : 1.0;
  }
  return norm;
}

double Bm25::PseudoFrequency(std::string_view term, const FieldedTerms& document,
                             const PerField<double>& norm) const {
  double frequency = 0;
  for (Field field : kFields) {
    const auto& terms = document.of(field);
    const auto count = std::count(terms.begin(), terms.end(), term);
    if (count == 0) continue;
    frequency += config_.field_weights.Of(field) * static_cast<double>(count) / norm[Index(field)];
  }
  return frequency;
}

double Bm25::TermFrequency(std::string_view term, const FieldedTerms& document,
                           const PerField<double>& average_field_length) const {
  return PseudoFrequency(term, document, LengthNorms(document, average_field_length));
}

double Bm25::Score(std::span<const std::string> query, const FieldedTerms& document,
                   const CorpusStats& stats) const {
  const PerField<double> norm = LengthNorms(document, stats.average_field_length);
  const std::set<std::string_view> distinct(query.begin(), query.end());
  double score = 0;
  for (std::string_view term : distinct) {
    const double frequency = PseudoFrequency(term, document, norm);
    if (frequency <= 0) continue;
    score += Idf(term, stats) * frequency * (config_.k1 + 1) / (frequency + config_.k1);
  }
  return score;
}

std::vector<RankedDocument> Bm25::Rank(std::span<const std::string> query,
                                       std::span<const FieldedTerms> documents,
                                       const CorpusStats& stats) const {
  std::vector<RankedDocument> ranked;
  ranked.reserve(documents.size());
  for (size_t i = 0; i < documents.size(); ++i) {
    ranked.push_back(RankedDocument{i, Score(query, documents[i], stats)});
  }
  std::stable_sort(
      ranked.begin(), ranked.end(),
      [](const RankedDocument& a, const RankedDocument& b) { return a.score > b.score; });
  return ranked;
}

}  // namespace skillnode::discovery::text
