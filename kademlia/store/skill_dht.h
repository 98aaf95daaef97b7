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
// republishes it first_republish_delay later, then every republish_interval while it is
// published; Unpublish publishes a signed tombstone the same way and keeps republishing it until
// the record's TTL has passed, so a stale copy cannot come back.
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
// Records larger than a datagram (docs/protocol.md): a record whose encoding is over
// kRecordInlineSizeMax travels in STORE, VALUES and PUSH as a reference {SHA-256, size,
// signature}; its receiver pulls the encoding from the sender with BLOB_GET, verifies it, and
// then goes on as with an inline record. A STORE of a reference is answered STORED once the pull
// has started (or a copy at hand resolved it); what the pulled record then fails is counted as a
// refused STORE would be, and nothing is stored from a pull that fails.
//
// SkillDht answers the requests itself (the holder side) and owns one helper per job, which it
// wires together: SkillGetter (skill_getter.h, the get path), SkillPublisher
// (skill_publisher.h, publishing and republishing), ReplicaHandoff (replica_handoff.h,
// hand-off and replica repair), ListenerTable (listener_table.h, listeners held for others and
// their pushes), Subscriptions (subscriptions.h, this node's own subscriptions), RecordWindow
// (record_window.h, validity windows), TermHolder (terms/term_holder.h, the keyword index's
// pointers held and served), RecordVerifier (record_verifier.h, signatures and
// policy), RecordOutbox (record_outbox.h, records to wire form and the bytes of large ones
// served) and RecordPull (record_pull.h, references resolved or pulled). The value types are in
// skill_dht_types.h.
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
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/request_handler.h"
#include "kademlia/store/holder/listener_table.h"
#include "kademlia/store/holder/replica_handoff.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/reader/record_pull.h"
#include "kademlia/store/reader/skill_getter.h"
#include "kademlia/store/reader/subscriptions.h"
#include "kademlia/store/record/record_verifier.h"
#include "kademlia/store/record/record_window.h"
#include "kademlia/store/record/skill_record.h"
#include "kademlia/store/record_outbox.h"
#include "kademlia/store/skill_dht_types.h"
#include "kademlia/store/skill_publisher.h"
#include "kademlia/store/terms/term_getter.h"
#include "kademlia/store/terms/term_holder.h"

namespace skillnode::kademlia::store {

class SkillDht final : public RequestHandler {
 public:
  SkillDht(Node& node, const DhtConfig& config, WallClock wall_clock = SimulatedWallClockMs);
  ~SkillDht() override;
  SkillDht(const SkillDht&) = delete;
  SkillDht& operator=(const SkillDht&) = delete;

  // RequestHandler.
  std::optional<wire::Body> OnRequest(transport::TimePoint now, const transport::Endpoint& from,
                                      const wire::Message& request) override;
  void OnContactAdded(transport::TimePoint now, const Contact& contact) override;
  void OnContactEvicted(transport::TimePoint now, const NodeId& id) override;
  void OnTimer(transport::TimePoint now) override;
  transport::TimePoint NextDeadline() const override;

  // Publishes `record` (a live record or a tombstone) under all its keys and keeps it alive.
  // A live record signed by this node's identity also gets a keyword index pointer per term of
  // `terms` (most distinctive first), republished and signed again with it; a tombstone buries
  // the pointers its identity had (terms/term_publisher.h).
  void Publish(transport::TimePoint now, const SignedRecord& record, PublishCallback done,
               std::vector<IndexTerm> terms = {});
  // Stops republishing the record of this identity (after a tombstone, Publish it first).
  void Forget(const RecordIdentity& identity);
  // Runs a FIND_VALUE lookup for `key`. Returns false when the node refuses more lookups.
  bool Get(transport::TimePoint now, const Key& key, const GetOptions& options, GetCallback done);
  // Reads the keyword index's pointers for `term` (a term as discovery/text makes it), shard by
  // shard (terms::TermGetter). Returns false when the node refuses more lookups.
  bool GetTerm(transport::TimePoint now, std::string_view term,
               const terms::TermGetOptions& options, terms::TermGetCallback done);

  // Subscribes to changes under `key`: the current records arrive as kAdded events first, then
  // every change. Returns a subscription id, or 0 when subscriptions_max are running.
  // `fresh`, a get of `key` the caller has just finished, saves the subscription its own first
  // read: it starts from those records and subscribes on the holders that get found.
  uint64_t Listen(transport::TimePoint now, const Key& key, ListenCallback on_change,
                  const GetResult* fresh = nullptr);
  void Unlisten(uint64_t subscription);
  // Tells a subscription about records its owner has just read from the key (a get of its
  // own: GetResult::records, one per identity), as a push would: newer ones raise events. A
  // subscription whose first read is still running would otherwise meet a later tombstone before
  // the record it removes, and report nothing. Returns the newest version the subscription knows of
  // each record's identity: the record itself, a later version, or a tombstone, for a read that
  // began before a change the subscription has already seen; then the records the subscription
  // knows that the read did not return (pushed while it ran).
  std::vector<SignedRecordPtr> Observe(uint64_t subscription,
                                       std::span<const SignedRecordPtr> records);
  // The records a subscription currently knows (live ones, newest per identity).
  std::vector<SignedRecord> ListenView(uint64_t subscription) const;

  const ValueStore& store() const { return store_; }
  // The keyword index's pointers this node holds for others.
  const terms::TermTable& terms() const { return terms_.table(); }
  // Listeners this node holds for others, over all keys.
  size_t listeners() const { return listeners_.size(); }
  // Records kept decoded in the table of verified copies (DhtConfig::verified_records_max).
  size_t verified_records_cached() const { return verifier_.cached(); }
  const DhtStats& stats() const { return stats_; }
  // Null (the default): every verified record is taken.
  void SetRecordPolicy(RecordPolicy policy) { verifier_.SetPolicy(std::move(policy)); }
  void SetResignedObserver(ResignedCallback observer) {
    publisher_.SetResignedObserver(std::move(observer));
  }
  size_t published() const { return publisher_.size(); }
  // The keyword index's pointer jobs of this node's own skills (queued, running).
  const terms::TermPublisher& term_publisher() const { return publisher_.term_publisher(); }
  // Records larger than a datagram: pulls running, and the records whose bytes this node serves.
  size_t record_pulls_running() const { return pull_.running(); }
  const RecordOutbox& outbox() const { return outbox_; }

 private:
  wire::Body HandleFindValue(transport::TimePoint now, const transport::Endpoint& from,
                             const wire::FindValueBody& find);
  // A page of the records under `find.target` into `values` (its token set).
  void AnswerRecords(transport::TimePoint now, const wire::FindValueBody& find,
                     wire::ValuesBody& values);
  wire::Body HandleStore(transport::TimePoint now, const transport::Endpoint& from,
                         const NodeId& sender, const wire::StoreBody& store);
  // The checks of a STORE after the token's, on its record (verified, or why not); stores it.
  // For a pulled record the answer has been given already: a refusal is only counted.
  wire::Body AdmitStore(transport::TimePoint now, const transport::Address& source,
                        const wire::StoreBody& store,
                        const transport::Result<SignedRecordPtr>& verified);
  wire::Body HandleListen(transport::TimePoint now, const transport::Endpoint& from,
                          const NodeId& id, const wire::ListenBody& listen);
  // A PUSH from a holder we listen on: the record checked, then given to our subscriptions.
  wire::Body HandlePush(transport::TimePoint now, const transport::Endpoint& from,
                        const NodeId& sender, const wire::PushBody& push);
  wire::Body AdmitPush(transport::TimePoint now, const wire::PushBody& push,
                       const transport::Result<SignedRecordPtr>& verified);
  wire::Body Refuse(wire::ErrorReplyCode code, const std::string& why);
  // Tells the listeners of `key` (remote ones by PUSH, this node's own subscriptions at once)
  // that its records changed: `push` names the new record (`record`, already verified) or the
  // one that is gone.
  void Notify(transport::TimePoint now, const Key& key, const wire::PushBody& push,
              const SignedRecordPtr& record);

  Node& node_;
  DhtConfig config_;
  DhtStats stats_;
  ValueStore store_;
  RecordWindow window_;
  terms::TermHolder terms_;
  RecordVerifier verifier_;
  RecordOutbox outbox_;
  RecordPull pull_;
  SkillGetter getter_;
  terms::TermGetter term_getter_;
  ReplicaHandoff handoff_;
  ListenerTable listeners_;
  Subscriptions subscriptions_;
  SkillPublisher publisher_;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_SKILL_DHT_H_
