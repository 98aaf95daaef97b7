// BucketView: the read-only queries over a routing table's buckets: the contacts closest to a
// key, the buckets in order of distance to a key, and a random key in one bucket's range.
//
// A view borrows the table's own id and buckets (it copies nothing and owns nothing); both
// must outlive it and stay unchanged while it is used. RoutingTable makes one per query, so
// the queries live apart from the code that adds and drops contacts. Closest runs for every
// FIND_NODE a node answers and every lookup it starts: it allocates only its result. Not
// thread-safe for one view; views on different threads use separate scratch space.
#ifndef SKILLNODE_KADEMLIA_ROUTING_BUCKET_VIEW_H_
#define SKILLNODE_KADEMLIA_ROUTING_BUCKET_VIEW_H_

#include <cstddef>
#include <span>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/key.h"
#include "kademlia/routing/bucket.h"
#include "transport/rng.h"

namespace skillnode::kademlia::routing {

class BucketView {
 public:
  // `buckets` must be a table's buckets: at least one, disjoint ranges covering the key
  // space, sorted by distance to `self`, farthest first (bucket.h).
  // `directory` holds the records the buckets' contacts refer to.
  BucketView(const NodeId& self, std::span<const Bucket> buckets, const PeerDirectory& directory);

  // Up to `count` bucket contacts closest to `target` by XOR distance, closest first.
  // Contacts with failures are cut before healthy ones: the result is the `count` closest
  // healthy contacts, topped up with the closest failing ones only when there are fewer
  // healthy contacts than `count`. Visits buckets nearest-first and stops once `count`
  // healthy contacts are gathered, so it does not sort the whole table. Replacement caches
  // are not searched.
  std::vector<Contact> Closest(const Key& target, size_t count) const;
  // The same contacts' records (id, key, address) only, for an answer that names them: valid
  // until the directory next changes.
  std::vector<const PeerRecord*> ClosestRecords(const Key& target, size_t count) const;

  // Fills `out` with every bucket index, the bucket whose contacts are closest to `target`
  // first.
  void BucketsByDistance(const Key& target, std::vector<size_t>& out) const;

  // A uniformly random key inside the range of the bucket at `index`.
  Key RandomKeyIn(size_t index, transport::Rng& rng) const;

 private:
  // Closest's choice, in order, into `out`.
  void Select(const Key& target, size_t count, std::vector<const StoredContact*>& out) const;

  const NodeId& self_;
  std::span<const Bucket> buckets_;
  const PeerDirectory& directory_;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_BUCKET_VIEW_H_
