// The value types of the skill store (kademlia/store/skill_dht.h): its configuration, what a
// get, a publish and a subscription report, its counters, and the callbacks it takes. Shared by
// SkillDht and the helpers it owns (skill_getter.h, skill_publisher.h, replica_handoff.h,
// listener_table.h, subscriptions.h, record_verifier.h); plain data, no behaviour.
#ifndef SKILLNODE_KADEMLIA_STORE_SKILL_DHT_TYPES_H_
#define SKILLNODE_KADEMLIA_STORE_SKILL_DHT_TYPES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kademlia/contact.h"
#include "kademlia/key.h"
#include "kademlia/lookup/lookup.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/terms/term_table.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"

namespace skillnode::kademlia::store {

struct DhtConfig {
  // r: nodes each record is stored on, per key (the seed's dht.replicationFactor).
  size_t replication = 3;
  // How often the publisher stores its records again; well inside the record TTL so that a
  // missed round or two does not let records expire.
  transport::Duration republish_interval = transport::Seconds(20 * 60);
  // A record's first republish after Publish comes this soon (never later than
  // republish_interval), then every republish_interval. A publish made while the network is
  // forming, or by a node that has just joined, places its copies with routing tables still
  // thin; the first republish places them again on the closest nodes as they are by then.
  transport::Duration first_republish_delay = transport::Seconds(5 * 60);
  StoreLimits limits;
  // The keyword index's pointers held for others (docs/protocol.md "Keyword index").
  terms::TermTableLimits term_limits;
  // A read of one term (terms::TermGetter) stops once it has this many live pointers, whatever
  // the caller wanted: two full shards (2 * kTermPointersPerKeyMax), enough candidates for a
  // page of 10 to 50 once a query's other terms intersect them.
  size_t term_pointers_read_max = 2 * kTermPointersPerKeyMax;
  // Keys (and records) handed to one new contact at most, so a join cannot trigger a flood.
  size_t handoff_keys_max = 64;
  size_t handoff_records_max = 256;
  // A holder that learns of a contact closer to a term key than itself, and then knows k
  // (RoutingConfig::bucket_size) closer ones, is past where a reader's lookup reads the key:
  // its pointers there are kept this much longer, not to their TTL (an hour and more). In a
  // growing network every newcomer among a key's closest pushes a holder out; without this the
  // copies of each pointer grow with the number of nodes that ever held it. Zero keeps them.
  transport::Duration outranked_pointer_life = transport::Seconds(10 * 60);
  // Replica repair: when a contact is evicted, the held keys checked for a lost copy (those
  // past this are not checked for that eviction; the publisher's republish restores them).
  size_t repair_keys_max = 4096;
  // A FIND_VALUE page request that times out is sent again, up to this many times in all.
  size_t page_attempts_max = 2;
  // Pages of one holder's pointers under a term key asked for at once by a term read
  // (terms::PageCursors): a probe of 64 pointers is 16 to 21 pages, 4 or 5 round trips at 4.
  size_t term_pages_in_flight_max = 4;
  // A get asks one of the k closest nodes again when its query turns slow, this many times,
  // and waits for it: one lost datagram must not hide the records that node holds.
  size_t get_slow_retries = 1;
  // A get's FIND_VALUE lookup, and a publish's FIND_NODE lookup for the holders, end once this
  // many of the closest nodes to the key have answered (or failed): the r holders and a margin
  // for holders that a churning network has moved (OpenDHT's gets wait for 8 too). At most the
  // bucket size.
  size_t lookup_closest = 8;
  // Read repair (Kademlia, section 2.3): after a get, each of the r closest nodes that
  // answered in full but lacked a record it found is sent that record, for the lifetime its
  // holders reported (never longer), up to this many STOREs per get; 0 turns it off.
  size_t read_repair_stores_max = 16;
  // Listen: how long a subscription lasts before the listener must renew it (it renews at half
  // that), and the bounds on what a holder and a listener keep.
  transport::Duration listen_lifetime = transport::Seconds(5 * 60);
  size_t listeners_per_key_max = 64;
  size_t listeners_max = 4096;
  size_t subscriptions_max = 256;
  // A push is sent this many times in all before the holder gives the listener up (it will
  // notice and subscribe again).
  size_t push_attempts_max = 3;
  // Records whose signature was checked, kept so that the copies of one record from its
  // holders, and the pushes and republishes that follow, are not verified again
  // (kademlia/store/record/verified_records.h); 0 verifies every copy.
  size_t verified_records_max = 1024;
  // The clock difference allowed between a record's publisher and this node, at each end of the
  // record's validity window (docs/security.md "Replay").
  transport::Duration clock_skew = transport::Seconds(5 * 60);
  // Records larger than a datagram (docs/protocol.md): pulls of referenced encodings running at
  // once (a reference past that is refused: STORE with kPullsFull, a get or push counts it), and
  // how long one may take in all before its sender counts as gone (a sender that never answers
  // is given up after about 7 s of unanswered chunk requests anyway).
  size_t record_pulls_max = 16;
  transport::Duration record_pull_timeout = transport::Seconds(15);
  // The large records this node sent references to, whose bytes it serves: for this long after
  // the last reference (time for its receivers to pull), and at most this many (the least
  // recently referenced forgotten first).
  transport::Duration record_serve_time = transport::Seconds(60);
  size_t record_outbox_max = 1024;
  // The keyword index's publisher (terms/term_publisher.h): the terms of one record that get a
  // pointer (the caller's list is most distinctive first; those past this are not published:
  // TermExtractorConfig::kTermsPerSkillMax, 32, with the text analysis's defaults), the pointer
  // jobs (a shard search, a lookup and its STOREs) running at once, and those waiting (a job
  // past that is dropped and counted; the next republish tries its term again), and the pace
  // at which jobs start: at most term_jobs_per_second a second, term_jobs_burst at once after
  // a quiet spell. A job is a lookup and r STOREs, some 20 to 40 requests, so 20 jobs a second
  // keep a node that registers hundreds of skills at once under about 800 requests a second
  // spread over the network, while a republish of 1,000 skills of 20 terms (20,000 jobs) fits
  // in the 20-minute republish interval.
  size_t term_pointers_per_record_max = 32;
  size_t term_jobs_running_max = 8;
  size_t term_jobs_queued_max = 16384;
  double term_jobs_per_second = 20;
  double term_jobs_burst = 40;
};

// One term a record is indexed under (docs/protocol.md "Keyword index"), as the caller's text
// analysis made it (discovery/text: kademlia/ cannot see it), with its weight in hundredths (the
// publisher clamps it to 1..kTermWeightCentiMax).
struct IndexTerm {
  std::string term;
  uint32_t weight_centi = 0;
  bool operator==(const IndexTerm&) const = default;
};

// A change seen by a listener.
struct ListenEvent {
  enum class Kind { kAdded, kChanged, kRemoved };
  Kind kind = Kind::kAdded;
  Key key;
  SignedRecord record;  // for kRemoved: the last version the listener knew
  // kRemoved by a tombstone: its reason (kNone when the record expired or vanished).
  UnregisterReason reason = UnregisterReason::kNone;
};
using ListenCallback = std::function<void(const ListenEvent&)>;

struct GetOptions {
  // Stop once this many distinct live records are known; 0 runs the lookup to the end.
  size_t records_wanted = 0;
  // Also report, per record, which nodes answered holding it and how long it has left
  // (GetResult::copies): for showing a record's replicas, not for every search.
  bool copies = false;
};

// Where one record of a get was found: the nodes whose answer held its newest version (or this
// node's own store), and the longest time any of them said it has left.
struct RecordCopies {
  std::vector<NodeId> holders;
  bool held_here = false;
  std::optional<uint32_t> seconds_left;
};

struct GetResult {
  Key key;
  // The newest version per identity, tombstones included (callers usually skip them).
  std::vector<SignedRecordPtr> records;
  std::vector<RecordCopies> copies;  // with GetOptions::copies: one per record, in order
  size_t rejected = 0;  // records that failed verification or did not belong under the key
  // References whose record could not be had: the pull failed or was refused (busy).
  size_t unavailable = 0;
  LookupStats stats;
  std::vector<Contact> closest;  // the nodes closest to the key that answered
  transport::TimePoint finished = transport::kTimeZero;
};
using GetCallback = std::function<void(const GetResult&)>;

struct PublishResult {
  size_t keys = 0;
  size_t stored = 0;   // STORE acknowledged
  size_t refused = 0;  // STORE answered with ERROR
  size_t failed = 0;   // STORE timed out or could not be sent
};
using PublishCallback = std::function<void(const PublishResult&)>;

struct DhtStats {
  // By ErrorReplyCode value (10..24 used).
  std::array<uint64_t, wire::kErrorReplyCodesEnd> store_refused{};
  uint64_t records_uncertified = 0;  // records in answers and pushes the policy refused
  uint64_t stores_accepted = 0;
  uint64_t find_value_served = 0;
  uint64_t records_expired = 0;
  // The keyword index: STOREs of term pointers taken (refusals count in store_refused), pages of
  // pointers served, and pointers dropped as their time ran out.
  uint64_t term_stores_accepted = 0;
  uint64_t term_pages_served = 0;
  uint64_t term_pointers_expired = 0;
  // The keyword index's publisher: pointers this node's STOREs placed (a pointer counts once
  // per placement, its copies on r holders not apart), tombstone pointers sent, moves to the
  // next shard after every holder refused with a full key, terms given up (every shard full),
  // and pointer jobs dropped (term_jobs_queued_max waiting) or failed to start (no lookup).
  uint64_t term_pointers_published = 0;
  uint64_t term_pointers_buried = 0;
  uint64_t term_shard_moves = 0;
  uint64_t terms_given_up = 0;
  uint64_t term_jobs_dropped = 0;
  // Pointers this node displaced from a full key it holds and handed on to the term's next
  // shard (TermPublisher::HandOn), and of them, those placed there (or farther up).
  uint64_t term_pointers_handed_on = 0;
  uint64_t term_hand_ons_placed = 0;
  // Reads of a term started; pointers a read stored on a close holder that lacked them; pointers
  // handed to a newcomer or a holder in an evicted one's place; pointers in read answers dropped
  // as outside their validity window.
  uint64_t term_gets_started = 0;
  uint64_t term_read_repairs = 0;
  uint64_t term_handoff_pointers = 0;
  uint64_t term_pointers_outranked = 0;  // held pointers given outranked_pointer_life
  uint64_t term_pointers_outside_window = 0;
  uint64_t handoff_records = 0;
  uint64_t repair_keys = 0;  // keys whose copy on an evicted contact we restored elsewhere
  uint64_t pages_retried = 0;
  uint64_t read_repairs = 0;  // records a get stored on a close node that lacked them
  uint64_t gets_started = 0;
  uint64_t publishes_started = 0;
  uint64_t pushes_sent = 0;
  uint64_t pushes_retried = 0;
  // Pushes (first or retried) sent through a listener's relay (docs/protocol.md "Relays").
  uint64_t pushes_relayed = 0;
  uint64_t pushes_received = 0;
  uint64_t listeners_dropped = 0;  // gave up after push_attempts_max
  uint64_t subscriptions_renewed = 0;
  uint64_t subscriptions_seeded = 0;    // started from the caller's own fresh get
  uint64_t records_verified = 0;        // signatures checked in full
  uint64_t records_verified_again = 0;  // copies of a record already checked, not checked again
  // Records in get answers and pushes dropped because their validity window had ended or not
  // yet begun (refused STOREs count in store_refused[kOutsideWindow]).
  uint64_t records_outside_window = 0;
  uint64_t records_resigned = 0;  // own live records signed again as their window ran out
  // STOREs of records this node published that a holder refused as outside their window: the
  // holder's clock and ours differ by more than the skew, and if many holders say so, ours is
  // the one that is wrong.
  uint64_t publishes_outside_window = 0;
  // Records larger than a datagram: references sent; references received that a copy at hand
  // resolved; pulls started, ended with the bytes, failed (the sender was silent, did not hold
  // the bytes or sent bytes that hash wrong), and refused (record_pulls_max running); and pulled
  // bytes that hashed right but held no valid record under the reference's signature.
  uint64_t references_sent = 0;
  uint64_t references_resolved_here = 0;
  uint64_t record_pulls_started = 0;
  uint64_t records_pulled = 0;
  uint64_t record_pulls_failed = 0;
  uint64_t record_pulls_refused = 0;
  uint64_t records_pulled_invalid = 0;
};

// Decides whether a verified record is taken at all: a network's rule on its publishers, such
// as "only publishers with a certificate" (node/lan: docs/security.md). A refused STORE is
// answered kUncertified; refused records in get answers and pushes are dropped and counted.
using RecordPolicy = std::function<transport::Result<void>(const SignedRecord&)>;
// Told of every record the republish signed again (the same fields, a new timestamp and
// sequence), so that the record's owner keeps the version the network holds.
using ResignedCallback = std::function<void(const SignedRecord&)>;

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_SKILL_DHT_TYPES_H_
