// SkillPublisher: the publisher side of the skill store. Publish stores a signed record on the
// r closest nodes of each of its keys (and keeps a copy here when this node is one of them),
// then republishes it first_republish_delay later (the copies placed again once routing tables
// have filled) and every republish_interval after that while it is published; a tombstone is
// republished until the record's TTL has passed, so a stale copy cannot come back. A live record
// this node signed itself is signed again at a republish that finds little of its window left
// (a new timestamp and a higher sequence), and its owner is told; one signed by another key is
// republished only while its window lasts.
//
// The keyword index's pointers of our own records (docs/protocol.md "Keyword index") go with
// them: the terms given with a record are kept with it, and each publish and republish of the
// record hands its version and terms to the TermPublisher (terms/term_publisher.h) this owns,
// which signs the pointers again whenever the record is signed again, and buries them when a
// tombstone is published.
//
// Owns the published records, their terms and their schedule; the node, the store, the window and
// the stats are SkillDht's (kademlia/store/skill_dht.h), which owns this publisher and is told
// through `on_stored` of every change a publish makes to this node's own store. Every Publish
// callback is called exactly once. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_SKILL_PUBLISHER_H_
#define SKILLNODE_KADEMLIA_STORE_SKILL_PUBLISHER_H_

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/record/record_window.h"
#include "kademlia/store/record_outbox.h"
#include "kademlia/store/skill_dht_types.h"
#include "kademlia/store/terms/term_holder.h"
#include "kademlia/store/terms/term_publisher.h"

namespace skillnode::kademlia::store {

// A publish changed this node's own store: `record` is now held under `key` (`held`, the
// store's shared copy).
using StoredHereCallback =
    std::function<void(transport::TimePoint now, const Key& key, const SignedRecord& record,
                       const SignedRecordPtr& held)>;

class SkillPublisher {
 public:
  SkillPublisher(Node& node, const DhtConfig& config, ValueStore& store, const RecordWindow& window,
                 RecordOutbox& outbox, terms::TermHolder& term_holder, DhtStats& stats,
                 StoredHereCallback on_stored);
  SkillPublisher(const SkillPublisher&) = delete;
  SkillPublisher& operator=(const SkillPublisher&) = delete;

  // SkillDht::Publish and Forget (kademlia/store/skill_dht.h).
  void Publish(transport::TimePoint now, const SignedRecord& record, PublishCallback done,
               std::vector<IndexTerm> terms = {});
  void Forget(const RecordIdentity& identity);
  // Republishes the records that are due (signing our own again where their window runs out)
  // and drops those whose republishing has ended.
  void RepublishDue(transport::TimePoint now);
  // The DHT's timer: RepublishDue, and the pointer jobs whose pace has come.
  void OnTimer(transport::TimePoint now);
  transport::TimePoint NextDeadline() const {
    const transport::TimePoint due =
        published_due_.empty() ? transport::kTimeNever : published_due_.begin()->first;
    return std::min(due, term_publisher_.NextDeadline());
  }
  size_t size() const { return published_.size(); }
  void SetResignedObserver(ResignedCallback observer) { resigned_ = std::move(observer); }
  const terms::TermPublisher& term_publisher() const { return term_publisher_; }
  // A pointer a STORE displaced from a full key held here goes on up (TermPublisher::HandOn).
  void HandOn(transport::TimePoint now, const terms::DisplacedPointer& displaced) {
    term_publisher_.HandOn(now, displaced);
  }

 private:
  struct Published {
    // Shared with this node's own store when it holds the record too (ValueStore::Put of a
    // SignedRecordPtr), so a record published here is kept once, not once more for the timer.
    SignedRecordPtr record;
    std::vector<IndexTerm> terms;  // what a live record of ours is indexed under
    transport::TimePoint next_republish;
    // When republishing stops: for a tombstone, when the record would have expired; for a live
    // record, the end of its validity window (this node signs its own again before then).
    transport::TimePoint until;
    transport::TimePoint Due() const { return std::min(next_republish, until); }
  };
  struct PublishState;

  // Publish and RepublishDue: stores `record` on the closest nodes of its keys, and schedules
  // its next republish `next_in` from now.
  void Place(transport::TimePoint now, const SignedRecord& record, PublishCallback done,
             std::vector<IndexTerm> terms, transport::Duration next_in);
  // Adds or replaces a published record, keeping published_due_ in step.
  void SetPublished(Published published);
  void StoreOn(transport::TimePoint now, const Key& key, const LookupResult& closest,
               const SignedRecordPtr& record, const std::shared_ptr<PublishState>& state);
  // At a republish: `record` as it should go out, signed again when it is ours, live, and has
  // less than republish_interval + ttl / 4 of its window left.
  SignedRecord Refreshed(transport::TimePoint now, SignedRecord record);

  Node& node_;
  const DhtConfig& config_;
  ValueStore& store_;
  const RecordWindow& window_;
  RecordOutbox& outbox_;
  DhtStats& stats_;
  StoredHereCallback on_stored_;
  ResignedCallback resigned_;
  terms::TermPublisher term_publisher_;
  std::map<RecordIdentity, Published> published_;
  // (next event, identity) of every published record: NextDeadline and RepublishDue look only
  // at the front, so thousands of registrations cost nothing per loop turn.
  std::set<std::pair<transport::TimePoint, RecordIdentity>> published_due_;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_SKILL_PUBLISHER_H_
