// Oracle: the simulator's knowledge of every live node, to check answers against the truth.
//
// Ids are kept sorted, so the nodes whose ids share a prefix with a key form a contiguous
// range, and the k nodes XOR-closest to a key lie in the smallest prefix range around it that
// holds at least k: finding them costs a few binary searches and sorting about 2k ids, not a
// pass over the whole network. Not thread-safe.
#ifndef SKILLNODE_SIM_WORKLOADS_ORACLE_H_
#define SKILLNODE_SIM_WORKLOADS_ORACLE_H_

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "kademlia/key.h"

namespace skillnode::sim::workloads {

struct OracleEntry {
  kademlia::NodeId id;
  uint32_t slot = 0;
};

class Oracle {
 public:
  using Filter = std::function<bool(const OracleEntry&)>;

  // Replaces the contents (any order; duplicates are a programmer error).
  void Assign(std::vector<OracleEntry> entries);
  void Insert(const kademlia::NodeId& id, uint32_t slot);
  // Returns false when `id` was not there.
  bool Erase(const kademlia::NodeId& id);
  bool Contains(const kademlia::NodeId& id) const;

  size_t size() const { return entries_.size(); }
  const std::vector<OracleEntry>& entries() const { return entries_; }

  // The entries whose ids start with the first `depth` bits of `prefix`.
  std::span<const OracleEntry> PrefixRange(const kademlia::Key& prefix, int depth) const;

  // Up to `count` entries closest to `target` by XOR distance that pass `keep` (all when
  // empty), closest first.
  std::vector<OracleEntry> Closest(const kademlia::Key& target, size_t count,
                                   const Filter& keep = {}) const;

 private:
  // The smallest range around `target` (deepest common prefix) holding at least `want`.
  std::span<const OracleEntry> Neighbourhood(const kademlia::Key& target, size_t want) const;

  std::vector<OracleEntry> entries_;  // sorted by id
};

}  // namespace skillnode::sim::workloads

#endif  // SKILLNODE_SIM_WORKLOADS_ORACLE_H_
