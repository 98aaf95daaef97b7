// SkillTextOf: the searchable text (SkillText, discovery/text/skill_fields.h) of a skill record
// as the DHT stores it — what a record is indexed under (TermExtractor) and what a query's text
// is matched and ranked against (TextMatch, Bm25), so that the publisher and every reader see a
// record's words alike. Pure; no ownership.
#ifndef SKILLNODE_DISCOVERY_TEXT_RECORD_TEXT_H_
#define SKILLNODE_DISCOVERY_TEXT_RECORD_TEXT_H_

#include "discovery/text/skill_fields.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::text {

// The record's fields: name is the descriptor's name, or the skill id when the record has no
// descriptor or its name is empty (an id such as "summarize-pdf" is words too); description and
// tags are the descriptor's (none without one); capabilities and scenes are the record's. A
// tombstone has its fields all the same: whether it is searchable is the caller's decision.
SkillText SkillTextOf(const kademlia::store::SkillRecord& record);

}  // namespace skillnode::discovery::text

#endif  // SKILLNODE_DISCOVERY_TEXT_RECORD_TEXT_H_
