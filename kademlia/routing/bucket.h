// Bucket: one k-bucket of a RoutingTable, as plain data. RoutingTable owns its buckets and
// changes them; BucketView (bucket_view.h) answers read-only queries over them.
#ifndef SKILLNODE_KADEMLIA_ROUTING_BUCKET_H_
#define SKILLNODE_KADEMLIA_ROUTING_BUCKET_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/key.h"
#include "kademlia/routing/peer_directory.h"
#include "transport/clock.h"

namespace skillnode::kademlia::routing {

// A contact as a bucket stores it: 32 bytes instead of a Contact's 120. The id, key and address
// are a record of the table's PeerDirectory; the first 64 bits of the id stay here, so that
// sorting by distance and finding an id rarely read the directory. The round trips are whole
// microseconds (the node clock's unit), at most about 71 minutes.
struct StoredContact {
  uint64_t id_word = 0;  // peer.id.FirstWord()
  transport::TimePoint last_seen = transport::kTimeZero;
  PeerDirectory::Ref peer = 0;  // one reference of the directory's, held by the table
  uint32_t rtt_us = 0;
  uint32_t rtt_deviation_us = 0;
  uint8_t failures = 0;  // saturates at 255

  static uint32_t Micros(transport::Duration d) {
    return static_cast<uint32_t>(
        std::clamp<int64_t>(d.count(), 0, std::numeric_limits<uint32_t>::max()));
  }
  // The liveness half of `c` (its identity is `peer`'s record).
  void SetLiveness(const Contact& c) {
    last_seen = c.last_seen;
    rtt_us = Micros(c.rtt);
    rtt_deviation_us = Micros(c.rtt_deviation);
    failures = static_cast<uint8_t>(std::clamp(c.failures, 0, 255));
  }
  bool rtt_known() const { return rtt_us > 0; }
};
static_assert(sizeof(StoredContact) == 32);

// The ids whose XOR distance to the table's own id starts with the first `depth` bits of
// `distance_prefix` (whose other bits are zero). A table's buckets have disjoint ranges that
// cover the key space, and it keeps them sorted by distance, farthest first. 112 bytes: a
// table at 10^6 nodes has about 18.
struct Bucket {
  Key distance_prefix;
  std::vector<StoredContact> contacts;      // least-recently-seen first, at most bucket_size
  std::vector<StoredContact> replacements;  // oldest first, at most replacement_cache_size
  transport::TimePoint touched_at =
      transport::kTimeZero;  // last contact added or lookup through it
  // The contact we asked the caller to ping, and when; at most one per bucket. It is known by
  // the first 64 bits of its id, as StoredContact::id_word: two contacts of one bucket that
  // share them (ground on purpose: 2^(64 - depth) key pairs) could only end the wait early,
  // and the oldest contact would be asked for once more.
  transport::TimePoint ping_asked_at = transport::kTimeZero;
  uint64_t ping_id_word = 0;
  int depth = 0;
  bool ping_pending = false;

  void AskedPing(uint64_t id_word, transport::TimePoint now) {
    ping_pending = true;
    ping_id_word = id_word;
    ping_asked_at = now;
  }
  // Ends the wait when `id_word` is the contact asked for.
  void PingDone(uint64_t id_word) {
    if (ping_pending && ping_id_word == id_word) ping_pending = false;
  }
};
static_assert(sizeof(Bucket) <= 112);

// The Contact that `stored` holds, its identity read from `directory`.
inline Contact ContactOf(const PeerDirectory& directory, const StoredContact& stored) {
  const PeerRecord& record = directory.record(stored.peer);
  Contact c;
  c.id = record.id;
  c.endpoint = record.endpoint;
  c.public_key = record.key;
  c.last_seen = stored.last_seen;
  c.failures = stored.failures;
  c.rtt = transport::Duration(stored.rtt_us);
  c.rtt_deviation = transport::Duration(stored.rtt_deviation_us);
  return c;
}

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_BUCKET_H_
