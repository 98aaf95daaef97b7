// ShardSearch: the arithmetic of finding the lowest shard of a term that has room for one more
// pointer (docs/protocol.md "Keyword index", "Publishing into shards"). Shards fill from 0 up,
// so the search is exponential over shards 0, 1, 3, 7, 15, 31, 63, then a bisection between
// the last full shard and the first one with room: one probe for a term whose shard 0 has room,
// at most 12 for the hottest. The caller probes (a FIND_VALUE lookup reading the holders' `tt`)
// and reports whether the shard was full; the search says which shard to probe next, where the
// pointer goes, or that every shard is full (the term is given up).
//
// A plain value with no I/O; the caller owns it.
#ifndef SKILLNODE_KADEMLIA_STORE_TERMS_SHARD_SEARCH_H_
#define SKILLNODE_KADEMLIA_STORE_TERMS_SHARD_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <optional>

namespace skillnode::kademlia::store::terms {

class ShardSearch {
 public:
  enum class State : uint8_t {
    kProbing,  // probe() is the shard to look at next
    kFound,    // found() is the lowest shard with room
    kAllFull,  // the last shard is full too: the term is given up
  };
  // The most probes a search takes over kTermShardsMax (64) shards: 7 doubling, 5 bisecting.
  static constexpr size_t kProbesMax = 12;

  State state() const { return state_; }
  // The shard to probe next; only while kProbing.
  uint32_t probe() const;
  // The probed shard is full (its closest answering holder holds kTermPointersPerKeyMax) or not.
  void OnProbed(bool full);
  // The shard the pointer goes to; only when kFound.
  uint32_t found() const;
  size_t probes() const { return probes_; }

 private:
  enum class Phase : uint8_t { kDoubling, kBisecting };
  // Moves to kFound when the highest full shard and the lowest with room are neighbours (or the
  // lowest with room is shard 0), else to the midpoint between them.
  void Narrow();

  State state_ = State::kProbing;
  Phase phase_ = Phase::kDoubling;
  uint32_t probe_ = 0;
  std::optional<uint32_t> full_;  // the highest shard seen full
  uint32_t room_ = 0;             // the lowest shard seen with room (once bisecting)
  size_t probes_ = 0;
};

}  // namespace skillnode::kademlia::store::terms

#endif  // SKILLNODE_KADEMLIA_STORE_TERMS_SHARD_SEARCH_H_
