// TermSource and RecordSource: what WordSearch (discovery/search/words/word_search.h) reads the
// network through — a term's pointers in the keyword index, and the records under a key — so that
// it runs alike on the DHT (adapters onto SkillDht::GetTerm and SkillDht::Get) and in tests on
// fakes. Interfaces only; implementations are owned by whoever sets them on the Searcher.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_SOURCES_H_
#define SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_SOURCES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record/term_pointer.h"
#include "transport/clock.h"

namespace skillnode::discovery::search {

// What reading one term found (docs/protocol.md "Reading shards").
struct TermReading {
  // Verified, live (inside their window; tombstones may be among them), heaviest first, at most
  // the number wanted.
  std::vector<kademlia::store::TermPointer> pointers;
  uint64_t count = 0;     // shard 0's count (tt): how common the term is; 0 when nothing holds it
  bool complete = false;  // every pointer the index holds for the term was read
  bool failed = false;    // no holder could be reached: says nothing of the term
};

class TermSource {
 public:
  using Callback = std::function<void(transport::TimePoint, TermReading)>;
  virtual ~TermSource() = default;
  // Reads `term`'s shards in order until `wanted` pointers are read or a shard is not full.
  // With `with_terms` (term hashes, TermProfile::HashOf; at most wire::kFindValueTermsMax),
  // only the pointers whose profile holds each hash are read and counted, tombstones too
  // (docs/protocol.md "Filtered reads"); `complete` then says every such pointer was read.
  // `done` is called exactly once, possibly before ReadTerm returns.
  virtual void ReadTerm(transport::TimePoint now, const std::string& term, size_t wanted,
                        const std::vector<uint16_t>& with_terms, Callback done) = 0;
};

class RecordSource {
 public:
  using Callback = std::function<void(
      transport::TimePoint, std::vector<kademlia::store::SignedRecordPtr> records, bool failed)>;
  virtual ~RecordSource() = default;
  // The verified records under `key` (every identity's newest, tombstones included). `done` is
  // called exactly once, possibly before GetRecords returns.
  virtual void GetRecords(transport::TimePoint now, const kademlia::Key& key, Callback done) = 0;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WORDS_WORD_SOURCES_H_
