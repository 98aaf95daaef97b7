// SourceShares: how many bytes each source address has stored with this node, and in what
// order, for the quotas of the stores that hold values for others (ValueStore, TermTable).
//
// A store gives each value it holds a slot (its key and the SHA-256 of its identity under the
// key) and tells the ledger when a value comes and goes. The ledger answers the two questions
// of the quotas: how much one source holds (its share of the total is bounded), and which value
// to evict when the total is full (the oldest of the heaviest source, never the newcomer's own:
// a flood from one address cannot displace what others stored). Iteration orders are
// deterministic (ordered maps). Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_HOLDER_SOURCE_SHARES_H_
#define SKILLNODE_KADEMLIA_STORE_HOLDER_SOURCE_SHARES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "kademlia/key.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::store {

// Where a store holds one value: the DHT key and the hash of the value's identity under it.
using StoreSlot = std::tuple<Key, Key>;
// The identity part of a slot: SHA-256 over the identity's fields, each length-prefixed (compact,
// and ordered the same way on every node).
Key SlotIdentity(const RecordIdentity& identity);

// What a store that holds values for others (ValueStore, TermTable) reports of a value it
// dropped when its time was up: the key it was under, its identity and its sequence.
struct StoreExpiry {
  Key key;
  RecordIdentity identity;
  uint64_t sequence = 0;
};

class SourceShares {
 public:
  // A value of `bytes` stored at `stored_at` in `slot` by `source`. The slot must not be held.
  void Add(const transport::Address& source, const StoreSlot& slot, transport::TimePoint stored_at,
           size_t bytes);
  // The value Add recorded leaves; the same arguments as its Add.
  void Remove(const transport::Address& source, const StoreSlot& slot,
              transport::TimePoint stored_at, size_t bytes);

  size_t BytesFrom(const transport::Address& source) const;
  // The oldest value of the source holding the most bytes (ties: the lowest address), unless
  // that source is `newcomer`: nothing then, since the newcomer would evict its own.
  std::optional<StoreSlot> EvictionCandidate(const transport::Address& newcomer) const;

  // Has `evict` drop eviction candidates until `needed` bytes are freed; false when none is left
  // first. `evict` erases the value in the slot (its store calls Remove) and returns its bytes.
  // The values in `leaving` are going anyway (a replaced version, a displaced pointer): `needed`
  // already counts them, so evicting one of them frees nothing more.
  bool EvictFor(size_t needed, const transport::Address& newcomer,
                std::initializer_list<std::optional<StoreSlot>> leaving,
                const std::function<size_t(const StoreSlot&)>& evict);

  size_t sources() const { return bytes_.size(); }

 private:
  std::map<transport::Address, size_t> bytes_;
  std::map<transport::Address, std::set<std::pair<transport::TimePoint, StoreSlot>>> by_age_;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_HOLDER_SOURCE_SHARES_H_
