// RoutingTable: the verified contacts a node knows, in k-buckets over the 256-bit key space.
//
// Buckets cover contiguous id ranges (a binary tree flattened into a list, as in the Kademlia
// paper section 2.4). A full bucket whose range holds our own id splits; a full bucket that
// does not hold it also splits when the newcomer would be among our k closest contacts, so
// that the k closest neighbours stay exact (the paper's relaxation, section 4.2). Contacts in
// a bucket are kept least-recently-seen first. Each bucket has a replacement cache. Farther
// buckets prefer contacts with short round trips (PreferNearer), so a lookup's early hops,
// which have many candidates to choose from, go to near peers.
//
// The table never sends anything: when a full bucket meets a newcomer it answers "ping this
// oldest contact" as data, and the caller reports the outcome with Heard() or Failed().
// Only contacts whose key has been verified may be given to Heard(); the table trusts it.
// The buckets are plain data (bucket.h); the read-only queries over them (closest contacts, a
// random key in a bucket) are BucketView's (bucket_view.h). A contact's id, key and address
// are a record of a PeerDirectory (peer_directory.h), the table's own or one shared with other
// tables on the same thread; a bucket keeps a 32-byte reference and the liveness figures
// (bucket.h StoredContact), taken and let go through StoredContacts (stored_contacts.h). The
// limit per network prefix is PrefixDiversity's (prefix_diversity.h).
// Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_ROUTING_ROUTING_TABLE_H_
#define SKILLNODE_KADEMLIA_ROUTING_ROUTING_TABLE_H_

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "kademlia/config.h"
#include "kademlia/contact.h"
#include "kademlia/key.h"
#include "kademlia/routing/bucket.h"
#include "kademlia/routing/prefix_diversity.h"
#include "kademlia/routing/stored_contacts.h"
#include "transport/clock.h"
#include "transport/rng.h"

namespace skillnode::kademlia::routing {

enum class InsertOutcome {
  kAdded,              // now in a bucket
  kUpdated,            // was in a bucket; moved to most-recently-seen, endpoint/key refreshed
  kReplacementCached,  // bucket full: kept in the replacement cache; see `ping`
  kRejectedDiversity,  // too many contacts from the same network prefix in that bucket
  kRejectedSelf,       // our own id
};

struct InsertResult {
  InsertOutcome outcome;
  // Set when the bucket was full: its least-recently-seen contact, to be pinged. If the ping
  // times out, Failed() (enough times) evicts it and promotes the best replacement. A bucket
  // asks for one ping at a time: while an answer is awaited (until Heard() or Failed() reports
  // on that contact, or a while has passed) further newcomers get no ping.
  std::optional<Contact> ping;
};

struct RoutingTableStats {
  size_t contacts = 0;
  size_t buckets = 0;
  size_t replacements = 0;
  size_t rejected_diversity = 0;  // since construction
  size_t evicted = 0;             // since construction: dropped by Failed()
  size_t promoted = 0;            // since construction: replacements moved into a bucket
  size_t displaced = 0;           // since construction: moved to the cache for a nearer newcomer
};

class RoutingTable {
 public:
  // `directory`: where the contacts' records are kept, shared with other tables of this thread
  // (it must outlive the table); null: a directory of the table's own.
  RoutingTable(const NodeId& self, const RoutingConfig& config, PeerDirectory* directory = nullptr);
  ~RoutingTable();
  RoutingTable(const RoutingTable&) = delete;
  RoutingTable& operator=(const RoutingTable&) = delete;

  const NodeId& self() const { return self_; }
  const RoutingConfig& config() const { return config_; }
  // Where the contacts' records are kept; the node's other tables of peers keep theirs there too.
  PeerDirectory& directory() const { return contacts_.directory(); }

  // A message from this verified contact arrived at `now`: add it, refresh it, or cache it.
  // The stored copy gets last_seen = now and failures = 0 whatever `contact` says; an all-zero
  // public_key means "unknown" and never overwrites a known one. A bucket contact that moved
  // to an address its bucket's diversity limit refuses keeps its old entry unchanged (a
  // cached one is dropped from the cache). `rtt`, when the message answered one of our
  // requests, is that round trip: it is folded into the contact's smoothed RTT, and a
  // newcomer much nearer than a full bucket's slowest contact takes its place
  // (proximity neighbour selection, RoutingConfig::proximity_ratio).
  InsertResult Heard(const Contact& contact, transport::TimePoint now,
                     transport::Duration rtt = transport::Duration{});

  // Whether a message from `id`, once its key is verified, could change the buckets at
  // `now`: it is in one already, its bucket has room or would split for it, or that bucket's
  // oldest contact is due for a ping (silent for ping_oldest_after, or failing), which a
  // newcomer triggers. A node spends a verification round trip only on such a requester;
  // one that could only wait in a full bucket's replacement cache is not worth one.
  bool Wants(const NodeId& id, transport::TimePoint now) const;

  // A request to `id` timed out. After stale_failures_max consecutive failures the contact
  // is evicted and the bucket's most recently seen replacement takes its place. A contact in
  // a replacement cache is dropped at its first failure. Returns true when the contact was
  // dropped from the table.
  bool Failed(const NodeId& id);

  // Removes a contact from its bucket (promoting a replacement) or from a replacement cache
  // (e.g. it proved to be someone else at that address). Returns true when it was known.
  bool Remove(const NodeId& id);
  // Whether `id` is a contact of its bucket (not only in a replacement cache).
  bool InBucket(const NodeId& id) const;

  // The contact with this id in a bucket or a replacement cache; empty when unknown.
  std::optional<Contact> Find(const NodeId& id) const;
  // The record (id, key, address) of that contact, and its failures, without making a
  // Contact; nullptr when unknown. The pointer is valid until the directory next changes.
  const PeerRecord* FindRecord(const NodeId& id, int* failures = nullptr) const;

  // Up to `count` contacts from the buckets closest to `target` by XOR distance, closest
  // first. Contacts with failures are cut before healthy ones: the result is the `count`
  // closest healthy contacts, topped up with the closest failing ones only when there are
  // fewer healthy contacts than `count`. Visits buckets nearest-first, so it does not sort the
  // whole table. The search is BucketView's (bucket_view.h).
  std::vector<Contact> Closest(const Key& target, size_t count) const;
  // The same contacts' records only (BucketView::ClosestRecords): for a NODES answer, which
  // names each by id and address. Valid until the directory next changes.
  std::vector<const PeerRecord*> ClosestRecords(const Key& target, size_t count) const;

  // Random targets, one for each bucket with no activity for bucket_refresh_interval; each
  // such bucket is marked refreshed at `now`. Lookups run through a bucket also mark it
  // (see Touched).
  std::vector<Key> RefreshTargets(transport::TimePoint now, transport::Rng& rng);
  // A lookup for `target` ran at `now`: its bucket counts as fresh.
  void Touched(const Key& target, transport::TimePoint now);
  // The earliest time a bucket becomes due for refresh. A new table counts as touched at
  // kTimeZero; a bucket made by a split inherits its parent's time.
  transport::TimePoint NextRefreshDue() const;

  // A uniformly random key inside the range of the bucket at `index`. Buckets are numbered
  // from the farthest from our own id (0, the farthest half once the table has split) to the
  // nearest (bucket_count() - 1, the one holding our own id).
  Key RandomKeyInBucket(size_t index, transport::Rng& rng) const;

  // All contacts, for saving across restarts, in a deterministic order: bucket contacts
  // (buckets farthest first, each least-recently-seen first), then the replacement caches
  // (in the same bucket order, each oldest first).
  std::vector<Contact> Export() const;
  // Adds saved contacts as if heard at `now` (they were verified when saved), in order;
  // returns how many were added, refreshed or cached (i.e. not rejected).
  size_t Import(std::span<const Contact> contacts, transport::TimePoint now);

  // Contacts in buckets (replacement caches not counted).
  size_t size() const;
  size_t bucket_count() const;
  RoutingTableStats stats() const;

 private:
  size_t IndexOf(const Key& key) const;
  InsertResult Refresh(Bucket& bucket, std::vector<StoredContact>::iterator it,
                       const Contact& contact, transport::TimePoint now, transport::Duration rtt);
  // Proximity neighbour selection: `newcomer` takes the place of the full bucket's slowest
  // measured contact when its RTT is at most proximity_ratio of that one's; the displaced
  // contact goes to the replacement cache. Empty when the bucket stays as it is.
  std::optional<InsertResult> PreferNearer(size_t index, const Contact& newcomer,
                                           transport::TimePoint now);
  InsertResult Insert(size_t index, const Contact& contact, transport::TimePoint now);
  InsertResult CacheReplacement(Bucket& bucket, const Contact& contact, transport::TimePoint now);
  std::optional<Contact> AskPing(Bucket& bucket, transport::TimePoint now);
  // A full bucket's least-recently-seen contact has failed or been silent ping_oldest_after.
  bool OldestDuePing(const Bucket& bucket, transport::TimePoint now) const;
  bool CanSplit(size_t index, const NodeId& newcomer) const;
  void Split(size_t index);
  void Promote(Bucket& bucket);
  InsertResult RejectDiversity();

  NodeId self_;
  RoutingConfig config_;
  StoredContacts contacts_;      // the buckets' references into the directory
  PrefixDiversity diversity_;    // the limit per network prefix of each list
  std::vector<Bucket> buckets_;  // sorted by distance, farthest first (bucket.h)
  size_t rejected_diversity_ = 0;
  size_t evicted_ = 0;
  size_t promoted_ = 0;
  size_t displaced_ = 0;
};

}  // namespace skillnode::kademlia::routing

#endif  // SKILLNODE_KADEMLIA_ROUTING_ROUTING_TABLE_H_
