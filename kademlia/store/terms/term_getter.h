// TermGetter: the reader side of the keyword index (docs/protocol.md "Keyword index", "Reading
// shards"). It reads one term's pointers shard by shard, 0, 1, 2, ..., each with a FIND_VALUE
// lookup of its key, and stops at the first of: a shard that is not full (none of its closest
// holders that answered reports kTermPointersPerKeyMax: publishers go past a full shard only),
// `wanted` live pointers read, DhtConfig::term_pointers_read_max, the last shard.
//
// A filtered read (TermGetOptions::with_terms) asks every holder for the pointers whose record
// holds the query's other terms too, so that `wanted` and term_pointers_read_max count those:
// a hot term's read reaches past its heaviest pointers to the intersection.
//
// Within a shard the lookup's first pages come from every node it asks. When it ends, the pages
// of the closest holder that has more are followed (heaviest first, a lost page asked again), up
// to DhtConfig::term_pages_in_flight_max of them at once (PageCursors: one stride of the smallest
// page apart), and another of the lookup's closest (beyond the r closest too: churn pushes
// holders past the r-th place) only while it reports more pointers than the shard
// has given so far: a reader pays one holder's pages (64 to 85 for a full shard), not r times
// that, in a quarter of the round trips. Every copy is
// checked and merged by TermPointerMerge (term_pointer_merge.h); the pointers this node holds in
// its own TermTable count as an answer. When a shard was read to its end, each of its r closest
// holders that answered in full but lacked a pointer found there is sent it (read repair, as a
// get's: at most read_repair_stores_max STOREs per read, for the lifetime its holders told).
//
// Owns the state of its running reads (each kept alive by the callbacks of its lookups and page
// requests); the node, the table, the window and the stats are SkillDht's (skill_dht.h), which
// owns this getter. Every read's callback is called exactly once. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_TERMS_TERM_GETTER_H_
#define SKILLNODE_KADEMLIA_STORE_TERMS_TERM_GETTER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/record/record_window.h"
#include "kademlia/store/record/term_pointer.h"
#include "kademlia/store/skill_dht_types.h"
#include "kademlia/store/terms/term_table.h"

namespace skillnode::kademlia::store::terms {

struct TermGetOptions {
  // Stop once this many live pointers are read; 0: DhtConfig::term_pointers_read_max (which
  // also bounds a larger number).
  size_t wanted = 0;
  // A filtered read (docs/protocol.md "Filtered reads"): only the pointers whose profile holds
  // each of these term hashes (TermProfile::HashOf), at most wire::kFindValueTermsMax. Holders
  // filter their pages by them (FIND_VALUE "wf"), and so does the merge (a holder of an earlier
  // version sends every pointer); `wanted` counts the pointers that pass, and a shard is still
  // full or not by all it holds. Empty: every pointer.
  std::vector<uint16_t> with_terms;
};

// How a read ended, as a get's result tells it (records, or replies in its LookupStats).
enum class TermGetStatus : uint8_t {
  kFound,        // at least one live pointer
  kNone,         // nodes answered (or this node holds the key), and no live pointer
  kUnreachable,  // not one node answered and this node holds nothing under the term
};

struct TermGetResult {
  TermGetStatus status = TermGetStatus::kNone;
  // Live pointers, newest per identity, heaviest first (ties in identity order).
  std::vector<SignedTermPointer> pointers;
  uint64_t shard0_count = 0;  // tt of shard 0, the most its closest holders reported
  uint32_t shards_read = 0;
  // Every pointer of the term was read: the last shard read was not full (or was the last
  // shard) and was read to its end.
  bool complete = false;
  size_t rejected = 0;  // copies that failed a check (forged, wrong key, outside their window)
  // What the read cost: FIND_VALUE lookups, the requests they and the page requests sent (asked
  // again included) and the replies they got, the pages requested after the lookups, and the
  // bytes of the pointer copies received (encodings and signatures).
  uint32_t lookups = 0;
  size_t messages = 0;
  size_t replies = 0;
  size_t pages = 0;
  size_t pointer_bytes = 0;
  transport::TimePoint finished = transport::kTimeZero;
};
using TermGetCallback = std::function<void(transport::TimePoint, TermGetResult)>;

class TermGetter {
 public:
  TermGetter(Node& node, const DhtConfig& config, const TermTable& table,
             const RecordWindow& window, DhtStats& stats);
  TermGetter(const TermGetter&) = delete;
  TermGetter& operator=(const TermGetter&) = delete;

  // Reads `term` (as discovery/text makes it: 1..kTermBytesMax bytes). Returns false (and never
  // calls `done`) when the node refuses more lookups.
  bool Get(transport::TimePoint now, std::string_view term, const TermGetOptions& options,
           TermGetCallback done);

 private:
  struct ReadState;
  using ReadPtr = std::shared_ptr<ReadState>;

  // Starts the lookup of `shard`; false when the node refuses it.
  bool StartShard(const ReadPtr& read, transport::TimePoint now, uint32_t shard);
  // The page at `cursor` from `from` (the lookup's are at cursor 0).
  void OnValues(const ReadPtr& read, transport::TimePoint now, const Contact& from, uint32_t cursor,
                const wire::ValuesBody& values);
  // Asks the next pages the shard needs (a window of them), or finishes the shard.
  void PageOrFinish(const ReadPtr& read, transport::TimePoint now);
  // The page at `cursor` from `from` is lost for good: the shard is cut there.
  void Lose(const ReadPtr& read, const Contact& from, uint32_t cursor);
  // Asks `from` for the page at `cursor`; false when the node refuses more requests.
  bool RequestPage(const ReadPtr& read, transport::TimePoint now, const Contact& from,
                   uint32_t cursor, size_t attempt);
  void FinishShard(const ReadPtr& read, transport::TimePoint now);
  void ReadRepair(const ReadPtr& read, transport::TimePoint now);
  void Finish(const ReadPtr& read, transport::TimePoint now);

  Node& node_;
  const DhtConfig& config_;
  const TermTable& table_;
  const RecordWindow& window_;
  DhtStats& stats_;
};

}  // namespace skillnode::kademlia::store::terms

#endif  // SKILLNODE_KADEMLIA_STORE_TERMS_TERM_GETTER_H_
