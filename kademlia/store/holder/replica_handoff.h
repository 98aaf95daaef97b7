// ReplicaHandoff: the skill store's replication as contacts come and go. A newcomer closer to
// some held keys than we are is handed their records; when a contact that held some of our keys
// beside us is evicted, the node that now ranks among the r closest in its place gets a copy
// (replica repair), so a record does not wait for its publisher's republish to get back to r
// copies. Of the holders that see the same change, only the closest to the key sends, so the
// receiver gets one copy of each record rather than one from each holder. Each hand-off first earns
// the receiver's write token with a FIND_NODE. The keyword index's pointers (terms::TermTable) are
// handed over and repaired the same way, key by key, as the records are (docs/protocol.md "Keyword
// index").
//
// Owns nothing but its bounds; the node, the store, the term table and the stats are SkillDht's
// (kademlia/store/skill_dht.h), which owns this and calls it from its RequestHandler hooks.
// Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_HOLDER_REPLICA_HANDOFF_H_
#define SKILLNODE_KADEMLIA_STORE_HOLDER_REPLICA_HANDOFF_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/record_outbox.h"
#include "kademlia/store/skill_dht_types.h"
#include "kademlia/store/terms/term_table.h"

namespace skillnode::kademlia::store {

class ReplicaHandoff {
 public:
  ReplicaHandoff(Node& node, const DhtConfig& config, const ValueStore& store,
                 const terms::TermTable& terms, RecordOutbox& outbox, DhtStats& stats);
  ReplicaHandoff(const ReplicaHandoff&) = delete;
  ReplicaHandoff& operator=(const ReplicaHandoff&) = delete;

  // `contact` has just entered the routing table: it gets the held records and pointers of the
  // keys it is closer to than we are and to which no other contact is closer than we are (at
  // most handoff_keys_max keys).
  void OnContactAdded(transport::TimePoint now, const Contact& contact);
  // The held keys `contact` is closer to than we are (at most handoff_keys_max) under which we
  // now know k (RoutingConfig::bucket_size) contacts closer than us: keys where a reader's
  // lookup no longer reaches this node, whose copies it need not keep to their end.
  std::vector<Key> OutrankedBy(const Contact& contact) const;
  // `gone` has just been evicted: for each held key it was a holder of beside us, where we are
  // the closest holder left, the node that moved up into the r closest in its place gets a copy.
  void OnContactEvicted(transport::TimePoint now, const NodeId& gone);

 private:
  // Whether a contact other than `excluded` is closer to `key` than this node.
  bool CloserOtherThan(const Key& key, const NodeId& excluded) const;
  // The keys closer to `contact` than to us: those that share its first d + 1 bits, where d is
  // the length of the prefix it shares with us. Empty when `contact` is this node.
  std::optional<std::pair<Key, Key>> RangeOf(const Contact& contact) const;
  // Up to `max` keys in [first, last] under which records or pointers are held, in order.
  std::vector<Key> HeldKeysBetween(const Key& first, const Key& last, size_t max) const;
  // A FIND_NODE to `contact` for the write token, then HandOff.
  void HandOffVia(transport::TimePoint now, const Contact& contact, const Key& key);
  void HandOff(transport::TimePoint now, const Contact& contact, const Key& key,
               const std::vector<uint8_t>& token);

  Node& node_;
  const DhtConfig& config_;
  const ValueStore& store_;
  const terms::TermTable& terms_;
  RecordOutbox& outbox_;
  DhtStats& stats_;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_HOLDER_REPLICA_HANDOFF_H_
