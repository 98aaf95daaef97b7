// Lookup: the state of one iterative Kademlia lookup, with no I/O of its own.
//
// The node asks NextQueries() whom to send FIND_NODE (or FIND_VALUE) to, and reports each
// outcome with OnReply() or OnFailure(). Each path keeps a shortlist of the closest contacts
// it has seen, queries up to alpha of the k closest not yet asked, and is finished when its k
// closest live contacts have all answered (a timed-out contact is marked failed and the next
// one moves up, so one silent peer never stalls a lookup).
//
// Each query also has a soft deadline, sooner than its request's timeout: a contact that has
// not answered by then is "slow" — it no longer holds one of the alpha slots or keeps the
// lookup waiting, but its reply still counts if it comes before the request times out. The
// lookup moves on at the pace of the answering peers without declaring far ones dead. A
// lookup with slow_retries > 0 (a get, which must reach the nodes that hold the value) first
// asks a slow contact again when it is one of the k closest it knows (and within
// slow_retry_rank) and waits for it once more: a lost datagram then costs one soft deadline,
// not the contact's answer.
//
// With extra_slots, a contact that an answer names closer to the target than all but alpha - 1
// of the queries in flight is asked at once, in one of extra_slots more slots, instead of
// waiting for a farther query to answer or go slow: the lookup follows the best lead it has.
//
// With final_round, a path whose closest known contact has answered asks the rest of its k
// closest all at once: the lookup has converged, and waiting for alpha slots to free would
// only make the end of it k / alpha round trips long. It sends the same queries, sooner.
//
// With d > 1 the lookup runs over d disjoint paths (Baumgart & Mies, S/Kademlia 2007): the
// starting contacts are dealt round-robin to the paths and a contact learnt by one path is
// never queried by another, so d - 1 adversarial paths cannot hide the target.
//
// A contact is known by its id, and an id can reach the lookup at more than one address: an
// adversary can name an honest node's id at an address of its own, first, so that the lookup
// would ask only there (the node rejects the answer: the id is not the hash of the
// adversary's key). So a contact keeps up to kAlternatesMax other addresses it was named at,
// and when the request to one fails, it is asked at the next (at once, if it had failed
// before the next was named).
#ifndef SKILLNODE_KADEMLIA_LOOKUP_LOOKUP_H_
#define SKILLNODE_KADEMLIA_LOOKUP_LOOKUP_H_

#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/key.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"

namespace skillnode::kademlia {

struct LookupParams {
  size_t k = 20;
  size_t alpha = 3;
  size_t paths = 1;
  size_t requests_max = 200;
  // Times a slow query to one of the k closest is sent again (and waited for) before the
  // contact counts as slow ...
  size_t slow_retries = 0;
  // ... if it is also among the closest this many contacts that may still answer: a get
  // waits for every holder it can reach, a node lookup only for the closest node.
  size_t slow_retry_rank = std::numeric_limits<size_t>::max();
  // Once the closest contact a path knows has answered, the rest of its k closest are asked
  // at once rather than alpha at a time (the Kademlia paper's last round, section 2.3).
  bool final_round = false;
  // A contact is asked as soon as fewer than alpha queries in flight are to contacts closer to
  // the target than it: a closer contact an answer names does not wait for a slot held by a
  // farther query. At most k queries of a path are then in flight.
  // Queries in flight beyond alpha, each for a contact closer to the target than all but
  // alpha - 1 of those in flight: a closer contact an answer names is asked at once rather
  // than when a farther query answers or goes slow.
  size_t extra_slots = 0;
};

struct LookupStats {
  int hops = 0;         // hop distance of the closest contact found (a starting contact is 1)
  size_t messages = 0;  // requests sent
  size_t replies = 0;
  size_t failures = 0;  // requests that timed out or were refused
  size_t slow = 0;      // queries past their soft deadline (some answered later)
  size_t retries = 0;   // slow queries sent again (slow_retries); counted in messages too
  transport::Duration duration{};
};

struct LookupResult {
  Key target;
  // Up to k contacts that answered, closest first.
  std::vector<Contact> closest;
  // The write token each of `closest` handed out (empty if none), in the same order.
  std::vector<std::vector<uint8_t>> tokens;
  LookupStats stats;
  transport::TimePoint finished = transport::kTimeZero;
};
// Called with a lookup's result when it finishes.
using LookupCallback = std::function<void(const LookupResult&)>;

class Lookup {
 public:
  // Other addresses a contact is asked at when the request at one fails.
  static constexpr size_t kAlternatesMax = 2;

  struct Query {
    NodeId id;
    transport::Endpoint endpoint;
    size_t path = 0;
  };

  Lookup(const Key& target, const NodeId& self, const LookupParams& params,
         std::span<const Contact> start, transport::TimePoint now);

  const Key& target() const { return target_; }

  // How long to wait for one contact before its query counts as slow.
  using SlowAfter = std::function<transport::Duration(const Contact&)>;

  // Contacts to query now; they are marked in flight, slow from `now + slow_after` on.
  std::vector<Query> NextQueries(transport::TimePoint now = transport::kTimeZero,
                                 transport::Duration slow_after = transport::Duration::max());
  // The same with a soft deadline of each contact's own (e.g. from its measured RTT).
  std::vector<Query> NextQueries(transport::TimePoint now, const SlowAfter& slow_after);
  // Marks in-flight queries whose soft deadline has passed as slow, or, within slow_retries,
  // as due to be sent again by NextQueries; true if any was.
  bool ExpireSlow(transport::TimePoint now);
  // The earliest soft deadline of a query in flight (kTimeNever if none).
  transport::TimePoint NextSlowDeadline() const;
  // `id` answered with contacts closer to the target (unverified: id and address only); a
  // slow contact's late answer counts too.
  void OnReply(const NodeId& id, const PublicKey& key, std::span<const wire::WireContact> closer,
               std::span<const uint8_t> token, transport::TimePoint now);
  // True once `id` has answered (a second answer, to a query sent again, changes nothing).
  bool Answered(const NodeId& id) const;
  // Ends the lookup now with what it has (a value lookup that found enough).
  void Stop() { stopped_ = true; }
  // A request to `id` timed out or was refused; the contact fails unless another request to it
  // is still open (or due to be sent).
  void OnFailure(const NodeId& id);

  // Finished: every path is done, or the request budget is spent with nothing in flight.
  bool done() const;
  LookupResult Result(transport::TimePoint now) const;

 private:
  enum class State { kCandidate, kInFlight, kSlow, kSucceeded, kFailed };
  struct Entry {
    Contact contact;
    State state = State::kCandidate;
    int hop = 1;
    std::vector<uint8_t> token;
    transport::TimePoint slow_at = transport::kTimeNever;  // in flight: when it becomes slow
    uint8_t sent = 0;                                      // requests sent to it
    uint8_t open = 0;  // ... not yet answered, timed out or refused
    std::vector<transport::Endpoint>
        alternates;  // other addresses it was named at, first named first
  };
  // An id some path has learnt, with the address it was first learnt at.
  struct Seen {
    NodeId id;
    transport::Endpoint endpoint;
  };
  struct Path {
    std::vector<Entry> entries;  // closest first
  };

  // The entry for `id` and its path, or null.
  const Entry* FindEntry(const NodeId& id, size_t* path) const;
  Entry* FindEntry(const NodeId& id, size_t* path);
  // Adds `contact` to seen_; false when its id was there already (then a new address for it
  // is kept as an alternate).
  bool Learn(const Contact& contact);
  void AddAlternate(const NodeId& id, const transport::Endpoint& endpoint);
  // Moves `entry` to its next alternate address as a new candidate; false if it has none.
  static bool TryAlternate(Entry& entry);
  // True while a request to `e` is open: a reply or failure for it is still expected.
  static bool Waiting(const Entry& e);
  void Insert(size_t path, const Contact& contact, int hop);
  bool PathDone(const Path& path) const;
  size_t InFlight(const Path& path) const;
  // The closest contact on the path that may still answer has answered.
  static bool Converged(const Path& path);

  Key target_;
  NodeId self_;
  LookupParams params_;
  transport::TimePoint started_;
  std::vector<Path> paths_;
  // Every id any path has learnt, sorted: a lookup learns a few dozen to a few hundred, and a
  // sorted vector finds them with no allocation per id and no pointer to follow.
  std::vector<Seen> seen_;
  LookupStats stats_;
  bool stopped_ = false;
  // NextSlowDeadline, kept between changes: a node asks it of every lookup after each of its
  // events. A query sent lowers it; a reply, failure or expiry makes it unknown.
  mutable transport::TimePoint next_slow_ = transport::kTimeNever;
  mutable bool next_slow_known_ = true;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_LOOKUP_LOOKUP_H_
