// PeerBook: a node's bookkeeping of its peers beside the routing table. It remembers which
// peers proved their key at an address (the verified-peer cache, bounded by
// verified_peers_max, least recently heard forgotten first, probed for every datagram and so
// hashed under the node's secret key), keeps the contacts evicted for silence
// (DepartedContacts), and tracks the pings in flight that verify a requester or check a bucket's
// oldest contact, so that each runs once at a time. It updates the routing table as peers are
// heard from and fail, and reports what the node must do about it (ping, notify); it sends
// nothing itself.
//
// Owns the cache, the departed contacts and the in-flight sets; the routing table is the
// Node's (kademlia/node.h), which owns this book. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_ROUTING_PEER_BOOK_H_
#define SKILLNODE_KADEMLIA_ROUTING_PEER_BOOK_H_

#include <cstddef>
#include <unordered_set>

#include "kademlia/config.h"
#include "kademlia/contact.h"
#include "kademlia/flat_linked_map.h"
#include "kademlia/keyed_hash.h"
#include "kademlia/routing/departed_contacts.h"
#include "kademlia/routing/routing_table.h"
#include "kademlia/wire/wire.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::routing {

class PeerBook {
 public:
  PeerBook(const KademliaConfig& config, RoutingTable& routing, const HashKey& hash_key);
  PeerBook(const PeerBook&) = delete;
  PeerBook& operator=(const PeerBook&) = delete;
  ~PeerBook();

  // The key `id` proved it holds, or nullptr: a peer of the routing table that has not failed
  // since, or one of the cached peers. With `at`, only a proof made from that address counts
  // (Node::ProvenKey).
  const PublicKey* ProvenKey(const NodeId& id, const transport::Endpoint* at = nullptr) const;
  // Whether the sender of `header` proved that very key from `from` before; a cached peer
  // becomes the most recent.
  bool ProvenRequester(const transport::Endpoint& from, const wire::Header& header);
  // The sender of `header` has just proved its key from `from`: remembered in the cache.
  void Remember(const transport::Endpoint& from, const wire::Header& header);

  // What hearing from a verified peer did to the routing table: `inserted` as Heard reports
  // it, and whether the peer was one we had given up on (departed).
  struct Hearing {
    InsertResult inserted;
    bool returned = false;
  };
  // A message from the verified `contact` arrived (RoutingTable::Heard).
  Hearing Hear(transport::TimePoint now, const Contact& contact,
               transport::Duration rtt = transport::Duration{});
  // A request to `id` at `at` failed: it counts against the contact only where the table
  // knows `id` at that address (another node may have named it there). Returns true when the
  // contact was evicted (it is kept as departed).
  bool Failed(transport::TimePoint now, const NodeId& id, const transport::Endpoint& at);
  // Forgets the cached proof of `id`, if it was made at `at`.
  void ForgetProof(const NodeId& id, const transport::Endpoint& at);

  // A ping that verifies requester `id` at `from`: false when one is running for that id or
  // address, or verifications_in_flight_max are; else it is marked running until Verified.
  bool StartVerifying(const NodeId& id, const transport::Endpoint& from);
  void Verified(const NodeId& id, const transport::Endpoint& from);
  // A ping to a bucket's oldest contact before eviction: false when one is running already.
  bool StartLivenessPing(const NodeId& id);
  void LivenessPinged(const NodeId& id) { liveness_pings_.erase(id); }

  DepartedContacts& departed() { return departed_; }
  const DepartedContacts& departed() const { return departed_; }
  size_t probe_distance_max() const { return verified_.ProbeDistanceMax(); }

 private:
  // A cached peer's id, key and the address it proved them from are a record of the routing
  // table's directory (peer_directory.h): the cache holds one reference each, under the first
  // 64 bits of the id (24 bytes an entry instead of 48; a whole id is compared on the record).
  using VerifiedCache = FlatLinkedMap<uint64_t, PeerDirectory::Ref, KeyedHash<uint64_t>>;
  const PeerRecord& CachedRecord(VerifiedCache::Handle h) const;
  // The entry of `id`, or kNone.
  VerifiedCache::Handle FindCached(const NodeId& id) const;
  // ProvenKey's routing-table half: a contact that has not failed and whose key we know.
  const PublicKey* TableKey(const NodeId& id, const transport::Endpoint* at) const;

  const KademliaConfig& config_;
  RoutingTable& routing_;
  // Contacts evicted for silence, pinged now and then in case they come back (a healed
  // partition).
  DepartedContacts departed_;
  // Peers that proved their key at an address, least recently heard first. The routing
  // table's contacts need no entry: they are verified by construction (ProvenKey).
  VerifiedCache verified_;
  // Requesters we are verifying with a ping (by id and by address: always in step), and
  // contacts we are pinging before eviction.
  std::unordered_set<NodeId> verifying_;
  std::unordered_set<transport::Endpoint> verifying_endpoints_;
  std::unordered_set<NodeId> liveness_pings_;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_PEER_BOOK_H_
