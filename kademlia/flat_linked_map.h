// FlatLinkedMap: a hash map whose entries also form a list from oldest to newest, in one slab
// with an open-addressing index beside it.
//
// It serves the per-node tables probed for nearly every datagram: the rate limiter's sources
// (kademlia/rpc/rate_limiter.h, a recency list) and the verified-peer cache (kademlia/node.h, an
// insertion-order list). Nothing is allocated per entry. A probe reads the index, where each
// place holds the entry's 32-bit hash beside its slab place, and then touches the one slab
// entry whose hash matches; a node-based map walks a bucket chain through separately allocated
// nodes instead. Erasing by key or handle and taking the oldest entry are O(1): the index uses
// backward-shift deletion (no tombstones), and the list is linked by slab places.
//
// The index doubles to stay at most half full. Erased slab places are reused before the slab
// grows. A handle (slab place) stays valid until its entry is erased or the map is compacted.
// Neither grows back by itself: a map that a burst filled keeps its storage until its owner
// calls CompactIfSparse (the rate limiter does, as its sources go idle). Not thread-safe.
//
// The hash is 32 bits, and an entry's home place is its low bits. The default, MixedHash,
// mixes std::hash's 64 bits first: a node id's std::hash is its first 8 bytes, and the ids of
// a node's nearest peers share their leading bits, which would otherwise share a home. (Like
// any unkeyed hash it can be ground: an attacker who makes many identities can lengthen one
// probe run, up to the map's bound.) The tables that hold peer-chosen keys therefore take a
// KeyedHash (kademlia/keyed_hash.h, SipHash under a per-node secret key): the map keeps a hasher
// instance, given to its constructor, so a hasher may carry state.
#ifndef SKILLNODE_KADEMLIA_FLAT_LINKED_MAP_H_
#define SKILLNODE_KADEMLIA_FLAT_LINKED_MAP_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace skillnode::kademlia {

// std::hash through the 64-bit finaliser of MurmurHash3 (fmix64): every output bit depends on
// every input bit.
template <typename K>
struct MixedHash {
  uint32_t operator()(const K& key) const {
    auto h = static_cast<uint64_t>(std::hash<K>{}(key));
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return static_cast<uint32_t>(h);
  }
};

template <typename K, typename V, typename Hash = MixedHash<K>>
class FlatLinkedMap {
 public:
  using Handle = uint32_t;
  static constexpr Handle kNone = UINT32_MAX;

  FlatLinkedMap() = default;
  explicit FlatLinkedMap(Hash hash) : hash_(std::move(hash)) {}

  const Hash& hasher() const { return hash_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Ends of the list; kNone when empty.
  Handle oldest() const { return oldest_; }
  Handle newest() const { return newest_; }
  // The neighbour towards the newest end; kNone at the newest entry.
  Handle newer(Handle h) const { return slab_[h].newer; }

  const K& key(Handle h) const { return slab_[h].key; }
  V& value(Handle h) { return slab_[h].value; }
  const V& value(Handle h) const { return slab_[h].value; }

  // The entry for `key`, or kNone.
  Handle Find(const K& key) const {
    if (index_.empty()) return kNone;
    return index_[Probe(key, HashOf(key))].entry;
  }
  // The value for `key`, or nullptr.
  const V* Get(const K& key) const {
    const Handle h = Find(key);
    return h == kNone ? nullptr : &slab_[h].value;
  }

  // The entry for `key`, and false; or, when there is none, a new newest entry holding V{},
  // and true.
  std::pair<Handle, bool> Emplace(const K& key) {
    const uint32_t hash = HashOf(key);
    size_t at = index_.empty() ? 0 : Probe(key, hash);
    if (!index_.empty() && index_[at].entry != kNone) return {index_[at].entry, false};
    if ((size_ + 1) * 2 > index_.size()) {
      Grow();
      at = Probe(key, hash);
    }
    Handle h = free_;
    if (h != kNone) {
      free_ = slab_[h].older;
      slab_[h].value = V{};
    } else {
      h = static_cast<Handle>(slab_.size());
      slab_.emplace_back();
    }
    Entry& e = slab_[h];
    e.key = key;
    e.hash = hash;
    index_[at] = Place{hash, h};
    ++size_;
    e.newer = e.older = kNone;
    Link(h);
    return {h, true};
  }

  // Removes the entry for `key`; false when there was none.
  bool Erase(const K& key) {
    if (index_.empty()) return false;
    const size_t at = Probe(key, HashOf(key));
    if (index_[at].entry == kNone) return false;
    ErasePlace(at);
    return true;
  }

  void Erase(Handle h) {
    const size_t mask = index_.size() - 1;
    size_t at = slab_[h].hash & mask;
    while (index_[at].entry != h) {
      assert(index_[at].entry != kNone && "Erase of a handle not in the map");
      at = (at + 1) & mask;
    }
    ErasePlace(at);
  }

  // The longest distance of an entry from its home place (0: every entry sits at its home), a
  // scan of the index: how long the worst probe is, for tests and diagnostics.
  size_t ProbeDistanceMax() const {
    const size_t mask = index_.size() - 1;
    size_t worst = 0;
    for (size_t at = 0; at < index_.size(); ++at) {
      if (index_[at].entry == kNone) continue;
      worst = std::max(worst, (at - (index_[at].hash & mask)) & mask);
    }
    return worst;
  }

  // Entries the slab has room for without growing (used and erased places alike).
  size_t capacity() const { return slab_.capacity(); }

  // When the map holds under a quarter of its slab's room, moves its entries into storage
  // sized for twice their number (none when empty), in list order, with an index sized as if
  // they had been added one by one. Finds, the list and the hasher are unchanged; every
  // handle is invalidated. Returns whether it compacted.
  bool CompactIfSparse() {
    if (slab_.capacity() <= kSlabCompactMin || size_ * 4 >= slab_.capacity()) return false;
    std::vector<Entry> slab;
    slab.reserve(size_ * 2);
    for (Handle h = oldest_; h != kNone; h = slab_[h].newer) {
      Entry moved = std::move(slab_[h]);
      moved.older = slab.empty() ? kNone : static_cast<Handle>(slab.size() - 1);
      moved.newer = kNone;
      if (!slab.empty()) slab.back().newer = static_cast<Handle>(slab.size());
      slab.push_back(std::move(moved));
    }
    assert(slab.size() == size_);
    slab_ = std::move(slab);
    free_ = kNone;
    oldest_ = size_ == 0 ? kNone : 0;
    newest_ = size_ == 0 ? kNone : static_cast<Handle>(size_ - 1);
    size_t places = 0;
    if (size_ > 0) {
      places = kIndexMin;
      while (size_ * 2 > places) places *= 2;
    }
    std::vector<Place>(places, Place{}).swap(index_);
    const size_t mask = places - 1;
    for (Handle h = 0; h < size_; ++h) {
      size_t at = slab_[h].hash & mask;
      while (index_[at].entry != kNone) at = (at + 1) & mask;
      index_[at] = Place{slab_[h].hash, h};
    }
    return true;
  }

  // Moves the entry to the newest end of the list.
  void MakeNewest(Handle h) {
    if (h == newest_) return;
    Unlink(h);
    Link(h);
  }

 private:
  static constexpr size_t kIndexMin = 16;
  // A slab this small is never compacted: too little to give back.
  static constexpr size_t kSlabCompactMin = 16;

  struct Place {
    uint32_t hash = 0;
    Handle entry = kNone;
  };
  struct Entry {
    K key{};
    V value{};
    uint32_t hash = 0;
    Handle newer = kNone;  // towards the newest end
    Handle older = kNone;  // towards the oldest end; the next free place when erased
  };

  // Removes the entry at index place `hole`.
  void ErasePlace(size_t hole) {
    const Handle h = index_[hole].entry;
    const size_t mask = index_.size() - 1;
    // Backward shift: every later place of the probe run whose home is not between the hole
    // and itself moves into the hole, so that no probe meets an empty place before its entry.
    for (size_t next = (hole + 1) & mask; index_[next].entry != kNone; next = (next + 1) & mask) {
      const size_t home = index_[next].hash & mask;
      const bool stays =
          hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (stays) continue;
      index_[hole] = index_[next];
      hole = next;
    }
    index_[hole] = Place{};
    --size_;
    Unlink(h);
    slab_[h].older = free_;
    free_ = h;
  }

  uint32_t HashOf(const K& key) const { return static_cast<uint32_t>(hash_(key)); }

  // The place holding `key`, or else the empty place ending its probe run. The index is not
  // empty.
  size_t Probe(const K& key, uint32_t hash) const {
    const size_t mask = index_.size() - 1;
    for (size_t at = hash & mask;; at = (at + 1) & mask) {
      const Place place = index_[at];
      if (place.entry == kNone) return at;
      if (place.hash == hash && slab_[place.entry].key == key) return at;
    }
  }

  void Link(Handle h) {
    Entry& e = slab_[h];
    e.older = newest_;
    e.newer = kNone;
    if (newest_ != kNone) slab_[newest_].newer = h;
    newest_ = h;
    if (oldest_ == kNone) oldest_ = h;
  }

  void Unlink(Handle h) {
    Entry& e = slab_[h];
    (e.newer != kNone ? slab_[e.newer].older : newest_) = e.older;
    (e.older != kNone ? slab_[e.older].newer : oldest_) = e.newer;
    e.newer = e.older = kNone;
  }

  void Grow() {
    std::vector<Place> old = std::move(index_);
    index_.assign(std::max(kIndexMin, old.size() * 2), Place{});
    const size_t mask = index_.size() - 1;
    for (const Place& place : old) {
      if (place.entry == kNone) continue;
      size_t at = place.hash & mask;
      while (index_[at].entry != kNone) at = (at + 1) & mask;
      index_[at] = place;
    }
  }

  Hash hash_{};
  std::vector<Entry> slab_;
  std::vector<Place> index_;  // power-of-two size
  size_t size_ = 0;
  Handle newest_ = kNone;
  Handle oldest_ = kNone;
  Handle free_ = kNone;  // erased slab places, linked through `older`
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_FLAT_LINKED_MAP_H_
