// Bucket: one k-bucket of a RoutingTable, as plain data. RoutingTable owns its buckets and
// changes them; BucketView (bucket_view.h) answers read-only queries over them.
#ifndef SKILLNODE_KADEMLIA_ROUTING_BUCKET_H_
#define SKILLNODE_KADEMLIA_ROUTING_BUCKET_H_

#include <optional>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/key.h"
#include "transport/clock.h"

namespace skillnode::kademlia::routing {

// The ids whose XOR distance to the table's own id starts with the first `depth` bits of
// `distance_prefix` (whose other bits are zero). A table's buckets have disjoint ranges that
// cover the key space, and it keeps them sorted by distance, farthest first.
struct Bucket {
  Key distance_prefix;
  int depth = 0;
  std::vector<Contact> contacts;      // least-recently-seen first, at most bucket_size
  std::vector<Contact> replacements;  // oldest first, at most replacement_cache_size
  transport::TimePoint touched_at =
      transport::kTimeZero;  // last contact added or lookup through it
  // The contact we asked the caller to ping and when; at most one per bucket.
  std::optional<NodeId> ping_pending;
  transport::TimePoint ping_asked_at = transport::kTimeZero;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_BUCKET_H_
