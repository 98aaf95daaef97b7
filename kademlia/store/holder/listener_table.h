// ListenerTable: the holder side of the listen feature. Remote nodes subscribe to a key with
// LISTEN; each change under the key is pushed to them with PUSH, acknowledged and sent again
// up to push_attempts_max times before the listener is given up (a live one notices at its
// next renewal and subscribes again). A listener that named a relay in its LISTEN (a client,
// whose NAT may no longer let this node in) is pushed to through the relay first, then
// directly, in turn (docs/protocol.md "Relays"). A new listener is first sent the records
// already held.
// Subscriptions that are not renewed expire.
//
// Owns the listeners; the node, the store and the stats are SkillDht's
// (kademlia/store/skill_dht.h), which owns this table. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_HOLDER_LISTENER_TABLE_H_
#define SKILLNODE_KADEMLIA_STORE_HOLDER_LISTENER_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/record_outbox.h"
#include "kademlia/store/skill_dht_types.h"

namespace skillnode::kademlia::store {

class ListenerTable {
 public:
  ListenerTable(Node& node, const DhtConfig& config, const ValueStore& store, RecordOutbox& outbox,
                DhtStats& stats);
  ListenerTable(const ListenerTable&) = delete;
  ListenerTable& operator=(const ListenerTable&) = delete;

  // A LISTEN from `id` at `from`: adds or renews its subscription and returns the lifetime
  // granted (in seconds), or nullopt when there is no room for another listener.
  std::optional<uint32_t> Add(transport::TimePoint now, const transport::Endpoint& from,
                              const NodeId& id, const wire::ListenBody& listen);
  // Pushes a change under `push.target` to every listener of that key.
  void Push(transport::TimePoint now, const wire::PushBody& push);
  // Drops the listeners whose subscription ran out without renewal.
  void Expire(transport::TimePoint now);
  // A lower bound on the earliest listener expiry (exact after Expire).
  transport::TimePoint NextDeadline() const { return due_; }
  // Listeners over all keys.
  size_t size() const { return count_; }

 private:
  struct Listener {
    transport::Endpoint endpoint;
    NodeId id;
    transport::TimePoint expires;
    std::optional<wire::WireContact> relay;  // the first of its LISTEN's "rl"
  };

  void SendPush(transport::TimePoint now, const Listener& listener, const wire::PushBody& push,
                size_t attempt);
  // Gives `listener` of `key` up after its pushes failed.
  void Drop(const Key& key, const NodeId& listener);

  Node& node_;
  const DhtConfig& config_;
  const ValueStore& store_;
  RecordOutbox& outbox_;
  DhtStats& stats_;
  std::map<Key, std::vector<Listener>> listeners_;
  size_t count_ = 0;
  // A lower bound on the earliest expiry, so that NextDeadline need not walk every listener:
  // lowered as one is added or renewed, made exact again by Expire, which walks them anyway.
  transport::TimePoint due_ = transport::kTimeNever;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_HOLDER_LISTENER_TABLE_H_
