// TermTable: the keyword index's pointers this node holds for the DHT (docs/protocol.md
// "Keyword index"), beside the skill records of the ValueStore.
//
// Pointers are kept per term key (a shard of one term) and, under a key, per identity
// (publisher, agentId, skillId) of the record they point at; as with records, only a higher
// sequence replaces a pointer, the same bytes again extend its life, and a tombstone replaces
// its pointer and is kept until it expires.
//
// Hot terms: a key holds at most pointers_per_key_max pointers. A newcomer to a full key takes
// the place of the lightest pointer (the lowest weight: the term matters least to that record;
// a tombstone weighs nothing) only if it weighs more; otherwise it is refused as kKeyFull and
// its publisher moves on to the term's next shard. Pages list a key's pointers heaviest first,
// so that a reader who stops after a page has the records the term matters most to.
//
// Quotas as the ValueStore's, over the pointers' own budget: bytes_total_max, and a share of it
// per source IP (SourceShares; the node's own pointers, stored with an unspecified source, are
// not counted against it). When the total is full, the oldest pointer of the heaviest source is
// evicted unless that source is the newcomer's. A refused Put changes nothing, except that a
// full total may have been relieved by evictions before the refusal. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_TERMS_TERM_TABLE_H_
#define SKILLNODE_KADEMLIA_STORE_TERMS_TERM_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/store/holder/source_shares.h"
#include "kademlia/store/record/term_pointer.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::store::terms {

struct TermTableLimits {
  // Pointers under one term key (docs/protocol.md: 256, 68 to 83 KiB).
  size_t pointers_per_key_max = kTermPointersPerKeyMax;
  // Bytes of pointers (encodings and signatures) this node holds for others: about 55,000
  // pointers of 300 bytes, a quarter of the skill records' default budget.
  size_t bytes_total_max = 16 * 1024 * 1024;
  // The part of bytes_total_max one source IP may fill, as for records.
  double per_ip_share_max = 0.25;
};

enum class TermRefusal : uint8_t {
  kNone = 0,
  kStale,       // an equal or higher sequence is held (or same sequence, other bytes)
  kNotTermKey,  // the key is none of the pointer's term's shards
  kKeyFull,     // pointers_per_key_max, and the newcomer weighs no more than the lightest
  kQuotaIp,     // the source IP's share is full
  kQuotaTotal,  // bytes_total_max, and nothing may be evicted for it
  kCount,
};
std::string_view TermRefusalName(TermRefusal refusal);

// One pointer held under a key: its bytes as its publisher signed them and what the table
// orders and replaces by. The pointer's fields are not kept decoded beside them (a holder keeps
// tens of thousands, and an answer sends only the bytes); Signed() decodes them again for the
// rarer uses, this node's own reads of the key and expiry.
struct StoredPointer {
  std::vector<uint8_t> encoded;  // canonical encoding, verified when it was stored
  Signature signature{};
  uint64_t sequence = 0;      // the pointer's
  uint32_t weight_centi = 0;  // the pointer's; 0 on a tombstone
  uint32_t ttl_seconds = 0;   // the pointer's
  transport::TimePoint stored_at = transport::kTimeZero;
  transport::TimePoint expires_at = transport::kTimeZero;
  uint32_t bytes = 0;  // accounted size: encoding + signature
  // Where the pointer's TermProfile lies in `encoded` (a filtered page reads it there, without
  // decoding): its first byte and its length; 0 and 0 on a tombstone, which has none.
  uint16_t profile_at = 0;
  uint16_t profile_bytes = 0;
  transport::Address source;  // who stored it (quota accounting)

  // The signed pointer held, decoded from `encoded`.
  SignedTermPointer Signed() const;
  std::span<const uint8_t> profile() const {
    return std::span(encoded).subspan(profile_at, profile_bytes);
  }
  // Whether a page filtered by `with_terms` lists it: a tombstone always (it buries an older
  // copy a reader may have from elsewhere), a live pointer when its profile holds every hash.
  bool Passes(std::span<const uint16_t> with_terms) const;
};

// Seconds a held pointer has left at `now`, within [1, its TTL]: what a VALUES answer, a
// hand-off or a read repair tells its receiver.
uint32_t SecondsLeft(const StoredPointer& held, transport::TimePoint now);

class TermTable {
 public:
  explicit TermTable(const TermTableLimits& limits);

  struct PutResult {
    TermRefusal refusal = TermRefusal::kNone;
    bool changed = false;  // new identity or higher sequence (false: a refresh of the same)
    size_t evicted = 0;    // pointers that left to make room (a full key's lightest, the total)
    // The live pointer that left the full key for the newcomer, if one did (a tombstone that
    // left is not kept here: it buries nothing farther up).
    std::optional<StoredPointer> displaced = std::nullopt;
  };
  // Stores `value` (already verified by the caller) under `key` until now + lifetime.
  PutResult Put(const Key& key, const SignedTermPointer& value, const transport::Address& source,
                transport::TimePoint now, transport::Duration lifetime);

  // At most `max` pointers under `key` from position `cursor` on, heaviest first (ties: in
  // identity order). Positions move when the key changes between two pages; a reader merges
  // by identity. With `with_terms`, the positions are those of the pointers that pass the
  // filter (StoredPointer::Passes) alone: a filtered read pages through them.
  std::vector<const StoredPointer*> Page(const Key& key, size_t cursor, size_t max,
                                         std::span<const uint16_t> with_terms = {}) const;
  size_t Count(const Key& key) const;
  // While `key` is full, the weight a newcomer must outweigh to enter it (its lightest
  // pointer's; 0 when it holds a tombstone); none while it has room.
  std::optional<uint32_t> EntryFloor(const Key& key) const;
  bool Has(const Key& key) const { return keys_.contains(key); }

  // Brings the end of every pointer under `key` forward to `until` where it is later: a holder
  // that no longer ranks among the key's closest keeps its copies a little longer, not to their
  // TTL. A later Put of the same pointer extends it again. Returns the pointers shortened.
  size_t Shorten(const Key& key, transport::TimePoint until);

  using Expired = StoreExpiry;
  // Drops every pointer whose time is up; returns what was dropped.
  std::vector<Expired> Expire(transport::TimePoint now);
  // When Expire has work next, or may have: never later than the earliest end of a pointer (an
  // extended pointer may leave it earlier, and Expire then finds nothing due).
  transport::TimePoint NextExpiry() const;

  // Up to `max` held keys in [first, last], in order (the replica hand-off walks these).
  std::vector<Key> KeysBetween(const Key& first, const Key& last, size_t max) const;

  size_t pointers() const { return pointers_; }
  size_t bytes() const { return bytes_; }
  size_t keys() const { return keys_.size(); }
  size_t bytes_from(const transport::Address& source) const { return shares_.BytesFrom(source); }
  // Pointers that left a full key for a heavier one, and that left for the total's room.
  uint64_t displaced() const { return displaced_; }
  uint64_t evicted() const { return evicted_; }

 private:
  using IdentityHash = Key;
  using Slot = StoreSlot;
  // A pointer as its key's map holds it: the identity and the pointer.
  using Held = std::pair<const IdentityHash, StoredPointer>;
  // The order pages are served in: heaviest first, identities ascending among equal weights.
  static bool HeavierFirst(uint32_t weight_a, const IdentityHash& a, uint32_t weight_b,
                           const IdentityHash& b) {
    return weight_a > weight_b || (weight_a == weight_b && a < b);
  }
  struct KeyEntry {
    std::map<IdentityHash, StoredPointer> pointers;
    // The same pointers in page order (HeavierFirst): a page is a slice from its cursor. At
    // most pointers_per_key_max entries, so an insertion's shift is short; map nodes do not
    // move, so the entries stay valid while their pointers are held.
    std::vector<const Held*> by_weight;
    // Never later than the earliest end among the pointers (a pointer that is extended or
    // erased leaves it where it was): when Expire looks at the key next. One entry of
    // key_expiry_ per key holds it.
    transport::TimePoint earliest_expiry = transport::kTimeNever;
  };

  // Where the pointer of `weight` and `id` is, or would go, in entry.by_weight.
  static std::vector<const Held*>::iterator PageSlot(KeyEntry& entry, uint32_t weight,
                                                     const IdentityHash& id);
  // The lightest pointer of a full key that `weight` displaces, if any.
  std::optional<IdentityHash> Displaced(const KeyEntry& entry, uint32_t weight) const;
  // A pointer under `key` ends at `at`: the key's earliest expiry comes forward to it if later.
  void NoteExpiry(const Key& key, KeyEntry& entry, transport::TimePoint at);
  bool Holds(const Key& key, const IdentityHash& id) const;
  // Evicts until `needed` bytes are freed (SourceShares::EvictFor).
  bool EvictForRoom(size_t needed, const transport::Address& newcomer,
                    std::initializer_list<std::optional<StoreSlot>> leaving);
  void Erase(const Key& key, const IdentityHash& id);

  TermTableLimits limits_;
  std::map<Key, KeyEntry> keys_;
  // (earliest_expiry, key) of every key held: expiry is looked at key by key, not pointer by
  // pointer, so a held pointer costs no entry of its own here.
  std::set<std::pair<transport::TimePoint, Key>> key_expiry_;
  SourceShares shares_;
  size_t pointers_ = 0;
  size_t bytes_ = 0;
  uint64_t displaced_ = 0;
  uint64_t evicted_ = 0;
};

}  // namespace skillnode::kademlia::store::terms

#endif  // SKILLNODE_KADEMLIA_STORE_TERMS_TERM_TABLE_H_
