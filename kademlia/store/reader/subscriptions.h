// Subscriptions: the listener side of the listen feature. A subscription to a key reads the key
// with a full get, asks LISTEN of the r closest holders that get found, and renews at half the
// listen lifetime with another full read (so anything missed while cut off is recovered,
// exactly, by sequence numbers), following the closest holders as they change. Pushes and this
// node's own store changes are applied to each subscription's view, which raises an event for
// every change the subscriber has not seen.
//
// Owns the subscriptions and their views; the node, the getter and the stats are SkillDht's
// (kademlia/store/skill_dht.h), which owns this and checks pushed records before Deliver.
// A subscriber's callback may subscribe or unsubscribe. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_READER_SUBSCRIPTIONS_H_
#define SKILLNODE_KADEMLIA_STORE_READER_SUBSCRIPTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "kademlia/node.h"
#include "kademlia/store/reader/skill_getter.h"
#include "kademlia/store/skill_dht_types.h"

namespace skillnode::kademlia::store {

class Subscriptions {
 public:
  Subscriptions(Node& node, const DhtConfig& config, SkillGetter& getter, DhtStats& stats);
  Subscriptions(const Subscriptions&) = delete;
  Subscriptions& operator=(const Subscriptions&) = delete;

  // SkillDht::Listen, Unlisten, Observe and ListenView (kademlia/store/skill_dht.h).
  uint64_t Listen(transport::TimePoint now, const Key& key, ListenCallback on_change,
                  const GetResult* fresh);
  void Unlisten(uint64_t subscription) { subscriptions_.erase(subscription); }
  std::vector<SignedRecordPtr> Observe(uint64_t subscription,
                                       std::span<const SignedRecordPtr> records);
  std::vector<SignedRecord> ListenView(uint64_t subscription) const;

  // A change under `key` (a verified push, or this node's own store): `record` is the new
  // version, or `gone` names the one that is gone.
  void Deliver(const Key& key, const SignedRecordPtr& record,
               const std::optional<wire::GoneRecord>& gone);
  // A newcomer closer to a subscribed key than the holders the subscription listens on moves
  // the subscription to it: its renewal is due now.
  void OnContactAdded(transport::TimePoint now, const Contact& contact);
  // Renews the subscriptions that are due, and every one at once when this client's relays
  // changed (RelayDriver::held_changes), so that its holders push through the relays it holds
  // now rather than through one it lost, until the next renewal.
  void RenewDue(transport::TimePoint now);
  // A lower bound on the earliest renewal (exact after RenewDue); due at once when the relays
  // changed.
  transport::TimePoint NextDeadline() const;
  size_t size() const { return subscriptions_.size(); }

 private:
  // While renewing, a subscription's full read is running and its next renewal is not due.
  enum class Phase : uint8_t { kWaiting, kRenewing };
  struct Subscription {
    Key key;
    ListenCallback on_change;
    std::map<RecordIdentity, SignedRecordPtr> view;  // tombstones kept to refuse older copies
    transport::TimePoint next_renewal = transport::kTimeZero;
    Phase phase = Phase::kWaiting;
    // The holders the subscription last asked to LISTEN, closest to the key first.
    std::vector<NodeId> holders;
  };

  void RenewAt(Subscription& subscription, transport::TimePoint at) {
    subscription.next_renewal = at;
    renewals_due_ = std::min(renewals_due_, at);
  }
  void Renew(transport::TimePoint now, uint64_t subscription);
  void Reconcile(uint64_t subscription, const GetResult& result);
  // After a full read of the subscription's key: the view reconciled with it, LISTEN sent to
  // the r closest holders it found, and the next renewal scheduled.
  void Subscribed(uint64_t subscription, const GetResult& result);
  // Applies `record` to the subscription's view (an event for news) and returns the newest
  // version the view holds of its identity.
  SignedRecordPtr Apply(Subscription& subscription, const SignedRecordPtr& record);

  Node& node_;
  const DhtConfig& config_;
  SkillGetter& getter_;
  DhtStats& stats_;
  std::map<uint64_t, Subscription> subscriptions_;
  uint64_t next_subscription_ = 1;
  // A lower bound on the earliest renewal, so that NextDeadline need not walk every
  // subscription: lowered as one is scheduled, made exact again by RenewDue.
  transport::TimePoint renewals_due_ = transport::kTimeNever;
  // RelayDriver::held_changes when the subscriptions last named the relays.
  uint64_t relays_seen_ = 0;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_READER_SUBSCRIPTIONS_H_
