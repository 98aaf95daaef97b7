// ValueStore: the skill records this node holds for the DHT, with quotas and expiry.
//
// Records are kept per DHT key and, under a key, per identity (publisher, agentId, skillId);
// only a higher sequence number replaces a record (the same bytes again just extend its life,
// which is how republishing works). A tombstone replaces its record like any newer version and
// is kept until it expires, so a stale copy of the record cannot come back meanwhile.
//
// Quotas, each a named limit: records per key, bytes per key, bytes in total, and a share of
// the total per source IP. When the total is full, the oldest record of the heaviest source IP
// is evicted — unless the newcomer's IP is itself the heaviest, in which case the newcomer is
// refused: a flood from one address cannot displace records others stored. A refused Put
// changes nothing. Iteration orders are deterministic (sorted arrays, ordered maps). Not
// thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_HOLDER_VALUE_STORE_H_
#define SKILLNODE_KADEMLIA_STORE_HOLDER_VALUE_STORE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/store/holder/source_shares.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/clock.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::store {

struct StoreLimits {
  // Records under one key: a popular capability offered by many agents. 1,024 agents is far
  // beyond the seed's deployments and keeps one key's pages to a few hundred datagrams.
  size_t records_per_key_max = 1024;
  // Bytes under one key (canonical encodings and signatures).
  size_t bytes_per_key_max = 1024 * 1024;
  // Bytes this node holds for others in total.
  size_t bytes_total_max = 64 * 1024 * 1024;
  // The part of bytes_total_max one source IP may fill: a quarter, so that many nodes behind
  // one address (or on one test host) still fit while one flooder cannot take everything.
  // The node's own records (stored with an unspecified source) are not counted against it.
  double per_ip_share_max = 0.25;
};

enum class StoreRefusal : uint8_t {
  kNone = 0,
  kStale,       // an equal or higher sequence is held (or same sequence, other bytes)
  kQuotaKey,    // records_per_key_max or bytes_per_key_max
  kQuotaIp,     // the source IP's share is full
  kQuotaTotal,  // bytes_total_max, and nothing may be evicted for it
  kCount,
};
std::string_view StoreRefusalName(StoreRefusal refusal);

struct StoredRecord {
  SignedRecordPtr value;      // shared with the same record under its other keys
  transport::Address source;  // who stored it (quota accounting)
  transport::TimePoint stored_at = transport::kTimeZero;
  transport::TimePoint expires_at = transport::kTimeZero;
  size_t bytes = 0;  // accounted size: encoding + signature
};

// What changed under a key: the new value (a record or tombstone) or an expiry.
struct StoreChange {
  Key key;
  const StoredRecord* record = nullptr;  // valid until the store changes again
  bool expired = false;
};

class ValueStore {
 public:
  explicit ValueStore(const StoreLimits& limits) : limits_(limits) {}

  struct PutResult {
    StoreRefusal refusal = StoreRefusal::kNone;
    bool changed = false;  // new identity or higher sequence (false: a refresh of the same)
    SignedRecordPtr record = nullptr;  // changed: the record as now held
  };
  // Stores `value` (already verified by the caller) under `key` until now + lifetime. A record
  // already held under another key is not copied again: both keys share it.
  PutResult Put(const Key& key, const SignedRecord& value, const transport::Address& source,
                transport::TimePoint now, transport::Duration lifetime);
  // The same for a record already shared (the one the verifier's table holds, VerifiedRecords):
  // when no copy is held, `value` itself is, so that the two share one allocation.
  PutResult Put(const Key& key, const SignedRecordPtr& value, const transport::Address& source,
                transport::TimePoint now, transport::Duration lifetime);

  // Records under `key`, ordered by identity (stable across calls, for pagination).
  std::vector<const StoredRecord*> Get(const Key& key) const;
  bool Has(const Key& key) const { return keys_.contains(key); }
  // At most `max` records under `key` from position `cursor` on, in Get's order.
  std::vector<const StoredRecord*> Page(const Key& key, size_t cursor, size_t max) const;
  // How many records `key` holds.
  size_t Count(const Key& key) const;
  // The record held with this signature (under any key), if any.
  SignedRecordPtr HeldWith(const Signature& signature) const;

  using Expired = StoreExpiry;
  // Drops every record whose time is up; returns what was dropped.
  std::vector<Expired> Expire(transport::TimePoint now);
  transport::TimePoint NextExpiry() const;

  // All keys held, in order.
  std::vector<Key> Keys() const;
  // Up to `max` held keys in [first, last], in order.
  std::vector<Key> KeysBetween(const Key& first, const Key& last, size_t max) const;

  size_t records() const { return records_; }
  size_t bytes() const { return bytes_; }
  size_t keys() const { return keys_.size(); }
  size_t bytes_from(const transport::Address& source) const { return shares_.BytesFrom(source); }
  uint64_t evicted() const { return evicted_; }
  // Grows with every record added, replaced or dropped (not with a republish that only extends
  // a life): a view made of what the store holds is current while this is unchanged.
  uint64_t changes() const { return changes_; }

 private:
  // Records under a key are indexed by SHA-256 of their identity (compact and ordered).
  using IdentityHash = Key;
  // One array per key, sorted by identity hash: a get walks it in order and a page starts at
  // its cursor, without a heap node per record (a key holds at most records_per_key_max, so
  // an insertion moves at most that many). Pointers into it last until the store changes.
  struct KeyEntry {
    using Records = std::vector<std::pair<IdentityHash, StoredRecord>>;
    Records records;
    size_t bytes = 0;
    Records::iterator Find(const IdentityHash& id);
    Records::const_iterator Find(const IdentityHash& id) const;
    Records::iterator LowerBound(const IdentityHash& id);
  };
  using Slot = StoreSlot;

  // Put's work; `given`, when not null, is `value` shared.
  PutResult Put(const Key& key, const SignedRecord& value, const SignedRecordPtr& given,
                const transport::Address& source, transport::TimePoint now,
                transport::Duration lifetime);
  bool Holds(const Key& key, const IdentityHash& id) const;
  // Evicts until `needed` bytes are freed (SourceShares::EvictFor).
  bool EvictForRoom(size_t needed, const transport::Address& newcomer,
                    std::initializer_list<std::optional<StoreSlot>> leaving);
  void Erase(const Key& key, const IdentityHash& id);
  // The one shared copy of `value`: the one held under another key, else `given` (`value`
  // shared) when not null, else a new one.
  SignedRecordPtr Share(const SignedRecord& value, const SignedRecordPtr& given);

  StoreLimits limits_;
  std::map<Key, KeyEntry> keys_;
  // Every record held, by signature (unique per record version), for sharing across keys,
  // with how many keys hold it.
  struct Shared {
    std::weak_ptr<const SignedRecord> record;
    size_t holders = 0;
  };
  std::map<Signature, Shared> shared_;
  std::set<std::pair<transport::TimePoint, Slot>> by_expiry_;
  SourceShares shares_;  // bytes per source IP, for its share and for eviction
  size_t records_ = 0;
  size_t bytes_ = 0;
  uint64_t evicted_ = 0;
  uint64_t changes_ = 0;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_HOLDER_VALUE_STORE_H_
