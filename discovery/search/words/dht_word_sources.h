// DhtTermSource and DhtRecordSource: WordSearch's sources (word_sources.h) on this node's
// SkillDht — a term read through SkillDht::GetTerm (the keyword index's shards, docs/protocol.md
// "Reading shards"), the records under a key through SkillDht::Get. What a read could not do
// (the node refused another lookup; nobody answered) is `failed`, never an empty answer, so the
// searcher reports an unreachable network rather than "nothing found".
//
// Hold a reference to the SkillDht, which must outlive them; no state of their own. Not
// thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_DHT_WORD_SOURCES_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_DHT_WORD_SOURCES_H_

#include <string>

#include "discovery/search/words/word_sources.h"
#include "kademlia/store/skill_dht.h"

namespace skillnode::discovery::search {

class DhtTermSource final : public TermSource {
 public:
  explicit DhtTermSource(kademlia::store::SkillDht& dht) : dht_(dht) {}
  void ReadTerm(transport::TimePoint now, const std::string& term, size_t wanted,
                const std::vector<uint16_t>& with_terms, Callback done) override;

 private:
  kademlia::store::SkillDht& dht_;
};

class DhtRecordSource final : public RecordSource {
 public:
  explicit DhtRecordSource(kademlia::store::SkillDht& dht) : dht_(dht) {}
  void GetRecords(transport::TimePoint now, const kademlia::Key& key, Callback done) override;

 private:
  kademlia::store::SkillDht& dht_;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_DHT_WORD_SOURCES_H_
