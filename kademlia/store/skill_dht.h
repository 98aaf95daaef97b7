// SkillDht: the SHA-256 keyed skill store on top of a Kademlia Node.
//
// Holder side: answers FIND_VALUE with a page of the records under a key (plus closer
// contacts and a write token) and STORE after checking the write token, the record's
// signature and limits, that the record belongs under the key, and the store's quotas; every
// refusal is an ERROR reply with a reason code and a counter, and changes nothing. Expired
// records are dropped. When a new contact closer to some of our keys joins, we hand it those
// records; when a contact that held some of our keys with us is evicted, we give a copy to the
// node that now ranks among the r closest in its place (replica repair), so a record does not
// wait for its publisher's republish to get back to r copies.
//
// Publisher side: Publish stores a signed record on the r closest nodes of each of its keys and
// republishes it every republish_interval while it is published; Unpublish publishes a signed
// tombstone the same way and keeps republishing it until the record's TTL has passed, so a stale
// copy cannot come back.
//
// Validity windows (skill_record.h, NotAfterMs): every record from the network (a STORE, a get
// answer, a push) is refused unless this node's wall clock is inside its signed window, give or
// take clock_skew; a held copy expires when its window does (tombstones: not before it does),
// so a replayed copy outlives neither its window nor the tombstone that replaced it. A live
// record this node signed itself is signed again at a republish that finds little of its window
// left (a new timestamp and a higher sequence), and its owner is told; one signed by another
// key is republished only while its window lasts. Get runs a FIND_VALUE lookup, verifies every
// record, follows pages and merges to the newest version per identity.
//
// Driven by the Node (RequestHandler); no I/O of its own. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_SKILL_DHT_H_
#define SKILLNODE_KADEMLIA_STORE_SKILL_DHT_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/request_handler.h"
#include "kademlia/store/skill_record.h"
#include "kademlia/store/value_store.h"
#include "kademlia/store/verified_records.h"

namespace skillnode::kademlia {

struct DhtConfig {
  // r: nodes each record is stored on, per key (the seed's dht.replicationFactor).
  size_t replication = 3;
  // How often the publisher stores its records again; well inside the record TTL so that a
  // missed round or two does not let records expire.
  Duration republish_interval = Seconds(20 * 60);
  StoreLimits limits;
  // Keys (and records) handed to one new contact at most, so a join cannot trigger a flood.
  size_t handoff_keys_max = 64;
  size_t handoff_records_max = 256;
  // Replica repair: when a contact is evicted, the held keys checked for a lost copy (those
  // past this are not checked for that eviction; the publisher's republish restores them).
  size_t repair_keys_max = 4096;
  // A FIND_VALUE page request that times out is sent again, up to this many times in all.
  size_t page_attempts_max = 2;
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
  Duration listen_lifetime = Seconds(5 * 60);
  size_t listeners_per_key_max = 64;
  size_t listeners_max = 4096;
  size_t subscriptions_max = 256;
  // A push is sent this many times in all before the holder gives the listener up (it will
  // notice and subscribe again).
  size_t push_attempts_max = 3;
  // Records whose signature was checked, kept so that the copies of one record from its
  // holders, and the pushes and republishes that follow, are not verified again
  // (kademlia/store/verified_records.h); 0 verifies every copy.
  size_t verified_records_max = 1024;
  // The clock difference allowed between a record's publisher and this node, at each end of the
  // record's validity window (docs/security.md "Replay").
  Duration clock_skew = Seconds(5 * 60);
};

// This node's wall clock, in milliseconds since the Unix epoch, at a point of its own timeline:
// the system clock in the daemon; the simulated calendar in simulations and tests.
using WallClock = std::function<uint64_t(TimePoint)>;
// The simulated calendar: kTimeZero is 2024-02-14 00:00 UTC (the seed protocol's example time).
constexpr uint64_t kSimulatedEpochMs = 1707868800000;
uint64_t SimulatedWallClockMs(TimePoint now);

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
  LookupStats stats;
  std::vector<Contact> closest;  // the nodes closest to the key that answered
  TimePoint finished = kTimeZero;
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
  // By ErrorReplyCode value (10..20 used).
  std::array<uint64_t, kErrorReplyCodesEnd> store_refused{};
  uint64_t records_uncertified = 0;  // records in answers and pushes the policy refused
  uint64_t stores_accepted = 0;
  uint64_t find_value_served = 0;
  uint64_t records_expired = 0;
  uint64_t handoff_records = 0;
  uint64_t repair_keys = 0;  // keys whose copy on an evicted contact we restored elsewhere
  uint64_t pages_retried = 0;
  uint64_t read_repairs = 0;  // records a get stored on a close node that lacked them
  uint64_t gets_started = 0;
  uint64_t publishes_started = 0;
  uint64_t pushes_sent = 0;
  uint64_t pushes_retried = 0;
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
};

// Decides whether a verified record is taken at all: a network's rule on its publishers, such
// as "only publishers with a certificate" (node/lan: docs/security.md). A refused STORE is
// answered kUncertified; refused records in get answers and pushes are dropped and counted.
using RecordPolicy = std::function<Result<void>(const SignedRecord&)>;
// Told of every record the republish signed again (the same fields, a new timestamp and
// sequence), so that the record's owner keeps the version the network holds.
using ResignedCallback = std::function<void(const SignedRecord&)>;

class SkillDht final : public RequestHandler {
 public:
  SkillDht(Node& node, const DhtConfig& config, WallClock wall_clock = SimulatedWallClockMs);
  ~SkillDht() override;
  SkillDht(const SkillDht&) = delete;
  SkillDht& operator=(const SkillDht&) = delete;

  // RequestHandler.
  std::optional<Body> OnRequest(TimePoint now, const Endpoint& from,
                                const Message& request) override;
  void OnContactAdded(TimePoint now, const Contact& contact) override;
  void OnContactEvicted(TimePoint now, const NodeId& id) override;
  void OnTimer(TimePoint now) override;
  TimePoint NextDeadline() const override;

  // Publishes `record` (a live record or a tombstone) under all its keys and keeps it alive.
  void Publish(TimePoint now, const SignedRecord& record, PublishCallback done);
  // Stops republishing the record of this identity (after a tombstone, Publish it first).
  void Forget(const RecordIdentity& identity);
  // Runs a FIND_VALUE lookup for `key`. Returns false when the node refuses more lookups.
  bool Get(TimePoint now, const Key& key, const GetOptions& options, GetCallback done);

  // Subscribes to changes under `key`: the current records arrive as kAdded events first, then
  // every change. Returns a subscription id, or 0 when subscriptions_max are running.
  // `fresh`, a get of `key` the caller has just finished, saves the subscription its own first
  // read: it starts from those records and subscribes on the holders that get found.
  uint64_t Listen(TimePoint now, const Key& key, ListenCallback on_change,
                  const GetResult* fresh = nullptr);
  void Unlisten(uint64_t subscription);
  // Tells a subscription about records its owner has just read from the key (a get of its
  // own), as a push would: newer ones raise events. A subscription whose first read is still
  // running would otherwise meet a later tombstone before the record it removes, and report
  // nothing. Returns the newest version the subscription knows of each record's identity: the
  // record itself, a later version, or a tombstone, for a read that began before a change the
  // subscription has already seen.
  std::vector<SignedRecordPtr> Observe(uint64_t subscription,
                                       std::span<const SignedRecordPtr> records);
  // The records a subscription currently knows (live ones, newest per identity).
  std::vector<SignedRecord> ListenView(uint64_t subscription) const;

  const ValueStore& store() const { return store_; }
  // Listeners this node holds for others, over all keys.
  size_t listeners() const { return listener_count_; }
  const DhtStats& stats() const { return stats_; }
  // Null (the default): every verified record is taken.
  void SetRecordPolicy(RecordPolicy policy) { policy_ = std::move(policy); }
  void SetResignedObserver(ResignedCallback observer) { resigned_ = std::move(observer); }
  size_t published() const { return published_.size(); }

 private:
  RecordPolicy policy_;
  ResignedCallback resigned_;
  struct Published {
    SignedRecord record;
    TimePoint next_republish;
    // When republishing stops: for a tombstone, when the record would have expired; for a live
    // record, the end of its validity window (this node signs its own again before then).
    TimePoint until;
    TimePoint Due() const { return std::min(next_republish, until); }
  };
  struct GetState;
  struct PublishState;
  struct Listener {
    Endpoint endpoint;
    NodeId id;
    TimePoint expires;
  };
  struct Subscription {
    Key key;
    ListenCallback on_change;
    std::map<RecordIdentity, SignedRecordPtr> view;  // tombstones kept to refuse older copies
    TimePoint next_renewal = kTimeZero;
    bool renewing = false;
    // The holders the subscription last asked to LISTEN, closest to the key first.
    std::vector<NodeId> holders;
  };

  Body HandleFindValue(TimePoint now, const Endpoint& from, const FindValueBody& find);
  Body HandleStore(TimePoint now, const Endpoint& from, const StoreBody& store);
  Body Refuse(ErrorReplyCode code, const std::string& why);
  // A record from the network, verified once (verified_) and counted.
  Result<SignedRecordPtr> Verify(const WireRecord& wire);
  // Whether our wall clock is inside the record's validity window, give or take clock_skew.
  Result<void> CheckWindow(TimePoint now, const SkillRecord& record) const;
  // How long a copy is held when offered for `offered`: a live record no longer than its
  // window lasts (with the skew), a tombstone at least that long.
  Duration HeldFor(TimePoint now, const SkillRecord& record, Duration offered) const;
  // The point of our timeline at which our wall clock reads `wall_ms` (now, if it has passed).
  TimePoint LocalTimeOf(TimePoint now, uint64_t wall_ms) const;
  // At a republish: `record` as it should go out, signed again when it is ours, live, and has
  // less than republish_interval + ttl / 4 of its window left.
  SignedRecord Refreshed(TimePoint now, SignedRecord record);
  void StoreOn(TimePoint now, const Key& key, const LookupResult& closest,
               const SignedRecord& record, const std::shared_ptr<PublishState>& state);
  void OnValues(const std::shared_ptr<GetState>& get, TimePoint now, const Contact& from,
                const ValuesBody& values);
  void FinishGetIfDone(const std::shared_ptr<GetState>& get);
  void ReadRepair(const std::shared_ptr<GetState>& get, TimePoint now);
  static std::vector<RecordCopies> Copies(const GetState& get);
  void HandOff(TimePoint now, const Contact& contact, const Key& key,
               const std::vector<uint8_t>& token);
  // A FIND_NODE to `contact` for the write token, then HandOff.
  void HandOffVia(TimePoint now, const Contact& contact, const Key& key);
  void RequestPage(const std::shared_ptr<GetState>& get, TimePoint now, const Contact& from,
                   uint32_t cursor, size_t attempt);
  // Listen, holder side.
  Body HandleListen(TimePoint now, const Endpoint& from, const NodeId& id,
                    const ListenBody& listen);
  // Tells the listeners of `key` (remote ones by PUSH, this node's own subscriptions at once)
  // that its records changed: `push` names the new record (`record`, already verified) or the
  // one that is gone.
  void Notify(TimePoint now, const Key& key, const PushBody& push, const SignedRecordPtr& record);
  // Applies a change under `key` to this node's own subscriptions on it.
  void DeliverToSubscriptions(const Key& key, const SignedRecordPtr& record,
                              const std::optional<GoneRecord>& gone);
  void SendPush(TimePoint now, const Listener& listener, const PushBody& push, size_t attempt);
  // Listen, listener side.
  void RenewAt(Subscription& subscription, TimePoint at) {
    subscription.next_renewal = at;
    renewals_due_ = std::min(renewals_due_, at);
  }
  Body HandlePush(TimePoint now, const PushBody& push);
  void Renew(TimePoint now, uint64_t subscription);
  void Reconcile(uint64_t subscription, const GetResult& result);
  // After a full read of the subscription's key: the view reconciled with it, LISTEN sent to
  // the r closest holders it found, and the next renewal scheduled.
  void Subscribed(uint64_t subscription, const GetResult& result);
  // Applies `record` to the subscription's view (an event for news) and returns the newest
  // version the view holds of its identity.
  SignedRecordPtr Apply(Subscription& subscription, const SignedRecordPtr& record);

  Node& node_;
  DhtConfig config_;
  WallClock wall_clock_;
  ValueStore store_;
  VerifiedRecords verified_;
  DhtStats stats_;
  // Adds or replaces a published record, keeping published_due_ in step.
  void SetPublished(Published published);

  std::map<RecordIdentity, Published> published_;
  // (next event, identity) of every published record: NextDeadline and OnTimer look only at
  // the front, so thousands of registrations cost nothing per loop turn.
  std::set<std::pair<TimePoint, RecordIdentity>> published_due_;
  // Lower bounds on the earliest listener expiry and subscription renewal, so that
  // NextDeadline need not walk every listener and subscription: each is lowered as an entry is
  // scheduled, and made exact again by OnTimer, which walks them anyway.
  TimePoint listeners_due_ = kTimeNever;
  TimePoint renewals_due_ = kTimeNever;
  std::map<Key, std::vector<Listener>> listeners_;
  size_t listener_count_ = 0;
  std::map<uint64_t, Subscription> subscriptions_;
  uint64_t next_subscription_ = 1;
};

}  // namespace skillnode::kademlia

#endif  // SKILLNODE_KADEMLIA_STORE_SKILL_DHT_H_
