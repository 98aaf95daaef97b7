// IndexTermsOf (index_terms.h).
#include "discovery/index_terms.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "discovery/text/record_text.h"
#include "kademlia/store/record/term_pointer.h"

namespace skillnode::discovery {

std::vector<kademlia::store::IndexTerm> IndexTermsOf(text::Analyzer& analyzer,
                                                     const text::TermExtractor& extractor,
                                                     const kademlia::store::SkillRecord& record) {
  std::vector<kademlia::store::IndexTerm> terms;
  if (record.tombstone) return terms;
  for (text::WeightedTerm& weighted : extractor.Extract(analyzer, text::SkillTextOf(record))) {
    const double centi = std::round(weighted.weight * 100.0);
    const auto weight = static_cast<uint32_t>(
        std::clamp(centi, 1.0, static_cast<double>(kademlia::store::kTermWeightCentiMax)));
    terms.push_back(kademlia::store::IndexTerm{std::move(weighted.term), weight});
  }
  return terms;
}

}  // namespace skillnode::discovery
