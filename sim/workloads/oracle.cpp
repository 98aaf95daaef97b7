#include "sim/workloads/oracle.h"

#include <algorithm>
#include <cassert>

namespace skillnode::sim::workloads {
namespace {

bool ById(const OracleEntry& a, const OracleEntry& b) { return a.id < b.id; }

// Narrows a range of entries sharing their first `depth` bits to those whose bit `depth`
// equals `bit` (entries with a 0 there sort first).
std::span<const OracleEntry> Narrow(std::span<const OracleEntry> range, int depth, bool bit) {
  const auto split = std::partition_point(range.begin(), range.end(),
                                          [&](const OracleEntry& e) { return !e.id.Bit(depth); });
  const auto at = static_cast<size_t>(split - range.begin());
  return bit ? range.subspan(at) : range.first(at);
}

}  // namespace

void Oracle::Assign(std::vector<OracleEntry> entries) {
  entries_ = std::move(entries);
  std::sort(entries_.begin(), entries_.end(), ById);
  assert(std::adjacent_find(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
           return a.id == b.id;
         }) == entries_.end());
}

void Oracle::Insert(const kademlia::NodeId& id, uint32_t slot) {
  const OracleEntry entry{id, slot};
  const auto at = std::lower_bound(entries_.begin(), entries_.end(), entry, ById);
  assert(at == entries_.end() || at->id != id);
  entries_.insert(at, entry);
}

bool Oracle::Erase(const kademlia::NodeId& id) {
  const auto at = std::lower_bound(entries_.begin(), entries_.end(), OracleEntry{id, 0}, ById);
  if (at == entries_.end() || at->id != id) return false;
  entries_.erase(at);
  return true;
}

bool Oracle::Contains(const kademlia::NodeId& id) const {
  return std::binary_search(entries_.begin(), entries_.end(), OracleEntry{id, 0}, ById);
}

std::span<const OracleEntry> Oracle::PrefixRange(const kademlia::Key& prefix, int depth) const {
  std::span<const OracleEntry> range(entries_);
  for (int d = 0; d < depth && !range.empty(); ++d) range = Narrow(range, d, prefix.Bit(d));
  return range;
}

std::span<const OracleEntry> Oracle::Neighbourhood(const kademlia::Key& target, size_t want) const {
  std::span<const OracleEntry> range(entries_);
  for (int d = 0; d < kademlia::Key::kBits; ++d) {
    const auto deeper = Narrow(range, d, target.Bit(d));
    if (deeper.size() < want) break;
    range = deeper;
  }
  return range;
}

std::vector<OracleEntry> Oracle::Closest(const kademlia::Key& target, size_t count,
                                         const Filter& keep) const {
  std::vector<OracleEntry> out;
  if (count == 0) return out;
  // Everything outside the neighbourhood is farther than everything in it, so its closest
  // passing entries are the answer once it holds `count` of them.
  for (size_t want = count;; want *= 2) {
    const auto range = Neighbourhood(target, want);
    std::vector<OracleEntry> candidates(range.begin(), range.end());
    std::sort(candidates.begin(), candidates.end(),
              [&](const OracleEntry& a, const OracleEntry& b) {
                return kademlia::CloserTo(target, a.id, b.id);
              });
    out.clear();
    for (const OracleEntry& e : candidates) {
      if (keep && !keep(e)) continue;
      out.push_back(e);
      if (out.size() == count) return out;
    }
    if (range.size() == entries_.size()) return out;
  }
}

}  // namespace skillnode::sim::workloads
