// PeerDirectory: the peer records (id, key, address) that routing tables hold, each stored once
// and reference-counted, so that a table's contact is a 4-byte reference beside its own
// liveness figures (bucket.h StoredContact).
//
// The daemon's node has a directory of its own. The simulator gives every node of one event
// lane the lane's directory, so that a peer known to a thousand routing tables costs its 84
// bytes once instead of a thousand times (docs/simulation.md "Memory"). A record is a value:
// a table whose contact moved or proved its key takes a reference to the new record and drops
// the old one, so sharing never lets one table see what another learnt.
//
// The index is a FlatLinkedMap (kademlia/flat_linked_map.h) hashed under a secret key, as the
// node's other tables of peer-chosen keys are. A reference stays valid until its last holder
// releases it; a record read through it may move when the directory next grows, so do not keep
// the returned reference across an Acquire. Not thread-safe: one thread (one node, or one
// simulator lane) uses a directory at a time.
#ifndef SKILLNODE_KADEMLIA_ROUTING_PEER_DIRECTORY_H_
#define SKILLNODE_KADEMLIA_ROUTING_PEER_DIRECTORY_H_

#include <cstddef>
#include <cstdint>

#include "kademlia/flat_linked_map.h"
#include "kademlia/identity.h"
#include "kademlia/key.h"
#include "kademlia/keyed_hash.h"
#include "transport/endpoint.h"

namespace skillnode::kademlia::routing {

// What a routing table knows of a peer besides its liveness: its id, the key it proved (all
// zero: not known yet) and the address it was heard from.
struct PeerRecord {
  NodeId id;
  PublicKey key{};
  transport::Endpoint endpoint;

  bool operator==(const PeerRecord&) const = default;
};

class PeerDirectory {
 public:
  using Ref = uint32_t;

  // `hash_key` keys the index's hash (kademlia/keyed_hash.h).
  explicit PeerDirectory(const HashKey& hash_key);
  PeerDirectory(const PeerDirectory&) = delete;
  PeerDirectory& operator=(const PeerDirectory&) = delete;
  ~PeerDirectory();

  // A reference to `record`, stored now if no holder has it.
  Ref Acquire(const PeerRecord& record);
  // One more holder of the record `ref` refers to.
  void Share(Ref ref);
  // A holder lets go; the record is forgotten with its last holder.
  void Release(Ref ref);

  const PeerRecord& record(Ref ref) const { return records_.key(ref); }
  // Distinct records held now.
  size_t size() const { return records_.size(); }
  // References held now, over all records.
  uint64_t references() const { return references_; }
  size_t probe_distance_max() const { return records_.ProbeDistanceMax(); }

 private:
  // The id is the record's entropy: same-id records (a peer at two addresses) share a home
  // place and are told apart by comparison.
  struct RecordHash {
    KeyedHash<Key> id_hash;
    uint32_t operator()(const PeerRecord& r) const { return id_hash(r.id); }
  };

  FlatLinkedMap<PeerRecord, uint32_t, RecordHash> records_;  // record -> its holders
  uint64_t references_ = 0;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_PEER_DIRECTORY_H_
