// TermExtractor: the terms a skill is indexed under, each with its weight in the record, at
// most a named number of them (docs/search.md, "Text analysis").
//
// A term's weight is BM25F's normalised term frequency tf~ (Bm25::TermFrequency): the sum over
// fields of the field's weight times the term's count there (FieldWeights: name and
// capabilities 3, tags 2, scenes 1.5, description 1), each divided by its field's length
// normalisation 1 - b + b * len / typical length. The typical field lengths stand for the
// network's average, which no publisher knows: with them a term in a short field outweighs the
// same term in a long one, as it will in the reader's ranking, so the heaviest pointers of a
// common term are the skills a reader ranks first. A term found only in fields weighted 0 is not
// indexed. When a skill has more than terms_per_skill_max distinct terms, the most distinctive
// are kept, in this order:
//   1. the higher weight;
//   2. the lower document frequency, when the caller gives a hint (say, from the terms it has
//      seen); a term the hint does not know counts as 0, never seen, so rare;
//   3. the longer term in bytes (a longer word is rarer-looking than a short one);
//   4. the term itself, byte-wise, so the choice never depends on anything but the input.
// The result is in that order too, most distinctive first, and deterministic.
//
// Holds only its configuration; the Analyzer is the caller's (not thread-safe, see there).
#ifndef SKILLNODE_DISCOVERY_TEXT_TERM_EXTRACTOR_H_
#define SKILLNODE_DISCOVERY_TEXT_TERM_EXTRACTOR_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/text/bm25.h"
#include "discovery/text/skill_fields.h"

namespace skillnode::discovery::text {

struct TermExtractorConfig {
  // A pointer per term is published for every skill: this bounds a skill's share of the index.
  static constexpr size_t kTermsPerSkillMax = 32;
  // Terms per field of a typical skill, after analysis (name, description, capabilities, tags,
  // scenes; Field's order): a short name, a sentence or two, a couple of capabilities.
  static constexpr PerField<double> kTypicalFieldLength = {3, 16, 4, 4, 2};

  Bm25Config bm25;  // its field weights, b and (unused here) k1
  PerField<double> typical_field_length = kTypicalFieldLength;
  size_t terms_per_skill_max = kTermsPerSkillMax;
};

struct WeightedTerm {
  std::string term;
  double weight = 0;

  bool operator==(const WeightedTerm&) const = default;
};

class TermExtractor {
 public:
  // The number of skills holding `term` as far as the caller knows, or nullopt.
  using DocumentFrequencyHint = std::function<std::optional<uint64_t>(std::string_view term)>;

  explicit TermExtractor(TermExtractorConfig config = {});

  // The weighted terms of `skill`, analysed by `analyzer`; `hint` may be empty.
  std::vector<WeightedTerm> Extract(Analyzer& analyzer, const SkillText& skill,
                                    const DocumentFrequencyHint& hint = nullptr) const;
  // The same from terms already analysed.
  std::vector<WeightedTerm> Extract(const FieldedTerms& terms,
                                    const DocumentFrequencyHint& hint = nullptr) const;

  const TermExtractorConfig& config() const { return config_; }

 private:
  TermExtractorConfig config_;
  Bm25 bm25_;
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_TERM_EXTRACTOR_H_
