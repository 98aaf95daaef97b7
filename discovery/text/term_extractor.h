// TermExtractor: the terms a skill is indexed under, each with its weight in the record, at
// most a named number of them (docs/search.md, "Text analysis").
//
// A term's weight is the sum over fields of the field's weight times the term's count there
// (FieldWeights: name and capabilities 3, tags 2, scenes 1.5, description 1); a term found
// only in fields weighted 0 is not indexed. When a skill has
// more than terms_per_skill_max distinct terms, the most distinctive are kept, in this order:
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

#include "discovery/text/skill_fields.h"

namespace skillnode::discovery::text {

struct TermExtractorConfig {
  // A pointer per term is published for every skill: this bounds a skill's share of the index.
  static constexpr size_t kTermsPerSkillMax = 32;

  FieldWeights field_weights;
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
};

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_TERM_EXTRACTOR_H_
