// What a skill record is indexed under in the DHT's keyword index (docs/protocol.md "Keyword
// index", docs/search.md): the weighted terms TermExtractor picks from its searchable text
// (text::SkillTextOf, the same text every reader matches and ranks), as
// the IndexTerms SkillDht::Publish takes (weights in hundredths, rounded, 1..kTermWeightCentiMax).
//
// Pure functions; the Analyzer is the caller's (not thread-safe: the Registry owns one).
#ifndef SKILLNODE_DISCOVERY_INDEX_TERMS_H_
#define SKILLNODE_DISCOVERY_INDEX_TERMS_H_

#include <vector>

#include "discovery/text/analyzer.h"
#include "discovery/text/skill_fields.h"
#include "discovery/text/term_extractor.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/skill_dht_types.h"

namespace skillnode::discovery {

// The terms `record` is indexed under, most distinctive first (at most the extractor's
// terms_per_skill_max); none for a tombstone.
std::vector<kademlia::store::IndexTerm> IndexTermsOf(text::Analyzer& analyzer,
                                                     const text::TermExtractor& extractor,
                                                     const kademlia::store::SkillRecord& record);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_INDEX_TERMS_H_
