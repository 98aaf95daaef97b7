// Subscriptions (subscriptions.h): the listener side of the listen feature, its full reads,
// views and renewals.
#include "kademlia/store/reader/subscriptions.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <set>
#include <utility>

namespace skillnode::kademlia::store {
namespace {

// After a failed subscription, the listener tries again this soon.
const transport::Duration kListenRetry = transport::Seconds(5);

}  // namespace

Subscriptions::Subscriptions(Node& node, const DhtConfig& config, SkillGetter& getter,
                             DhtStats& stats)
    : node_(node), config_(config), getter_(getter), stats_(stats) {}

uint64_t Subscriptions::Listen(transport::TimePoint now, const Key& key, ListenCallback on_change,
                               const GetResult* fresh) {
  if (subscriptions_.size() >= config_.subscriptions_max) return 0;
  const uint64_t id = next_subscription_++;
  subscriptions_[id] = Subscription{key, std::move(on_change), {}, now, Phase::kWaiting, {}};
  if (fresh != nullptr && fresh->key == key && !fresh->closest.empty()) {
    ++stats_.subscriptions_seeded;
    Subscribed(id, *fresh);
  } else {
    Renew(now, id);
  }
  return id;
}

std::vector<SignedRecordPtr> Subscriptions::Observe(uint64_t subscription,
                                                    std::span<const SignedRecordPtr> records) {
  std::vector<SignedRecordPtr> current;
  current.reserve(records.size());
  for (const SignedRecordPtr& record : records) {
    auto it = subscriptions_.find(subscription);  // a callback may have unsubscribed
    if (it == subscriptions_.end()) {
      current.push_back(record);
      continue;
    }
    current.push_back(Apply(it->second, record));
  }
  // A record pushed while the read ran, to holders it had already asked, is in the view and
  // not in the read: without it, an answer cached from this read would miss the record until
  // the next change under the key. A read holds each identity once, and each is in the view
  // after Apply: when the view holds no more than the read, it holds nothing else.
  auto it = subscriptions_.find(subscription);
  if (it == subscriptions_.end() || it->second.view.size() <= records.size()) return current;
  std::set<RecordIdentity> read;
  for (const SignedRecordPtr& record : records) read.insert(IdentityOf(record->record));
  for (const auto& [identity, record] : it->second.view) {
    if (!read.contains(identity)) current.push_back(record);
  }
  return current;
}

std::vector<SignedRecord> Subscriptions::ListenView(uint64_t subscription) const {
  std::vector<SignedRecord> out;
  auto it = subscriptions_.find(subscription);
  if (it == subscriptions_.end()) return out;
  for (const auto& [identity, record] : it->second.view) {
    if (!record->record.tombstone) out.push_back(*record);
  }
  return out;
}

void Subscriptions::Renew(transport::TimePoint now, uint64_t id) {
  auto it = subscriptions_.find(id);
  if (it == subscriptions_.end()) return;
  assert(it->second.phase == Phase::kWaiting);  // one full read at a time
  it->second.phase = Phase::kRenewing;
  ++stats_.subscriptions_renewed;
  const Key key = it->second.key;
  const bool started = getter_.Get(now, key, GetOptions{}, [this, id](const GetResult& result) {
    auto sub = subscriptions_.find(id);
    if (sub == subscriptions_.end()) return;
    if (result.closest.empty()) {
      // Nobody answered (we are cut off): that is no evidence that records went; keep the
      // view and try again soon.
      sub->second.phase = Phase::kWaiting;
      RenewAt(sub->second, result.finished + kListenRetry);
      return;
    }
    Subscribed(id, result);
  });
  if (!started) {
    it->second.phase = Phase::kWaiting;
    RenewAt(it->second, now + kListenRetry);
  }
}

void Subscriptions::Subscribed(uint64_t id, const GetResult& result) {
  Reconcile(id, result);
  auto sub = subscriptions_.find(id);  // the callback may have unsubscribed
  if (sub == subscriptions_.end()) return;
  const transport::TimePoint at = result.finished;
  // Subscribe on the r closest holders; renew at half the lifetime, or soon if none took it.
  const uint32_t lifetime = static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(config_.listen_lifetime).count());
  size_t asked = 0;
  sub->second.holders.clear();
  // A client names its relays, through which the holders' pushes reach it when its NAT no
  // longer lets them in (docs/protocol.md "Relays").
  wire::ListenBody listen{result.key, lifetime, {}};
  for (const auto& held : node_.relay().held(at)) {
    if (listen.relays.size() == wire::kRelaysPerListenMax) break;
    listen.relays.push_back(wire::WireContact{held.relay.id, held.relay.endpoint});
  }
  for (const Contact& holder : result.closest) {
    if (asked == config_.replication) break;
    if (node_.Request(at, holder.endpoint, holder.id, listen, nullptr)) {
      ++asked;
      sub->second.holders.push_back(holder.id);
    }
  }
  sub->second.phase = Phase::kWaiting;
  RenewAt(sub->second, at + (asked > 0 ? config_.listen_lifetime / 2 : kListenRetry));
}

SignedRecordPtr Subscriptions::Apply(Subscription& subscription, const SignedRecordPtr& record) {
  auto [it, inserted] = subscription.view.try_emplace(IdentityOf(record->record), record);
  ListenEvent event;
  event.key = subscription.key;
  if (inserted) {
    if (record->record.tombstone) return record;
    event.kind = ListenEvent::Kind::kAdded;
    event.record = *record;
  } else {
    if (record->record.sequence <= it->second->record.sequence) return it->second;
    const bool was_live = !it->second->record.tombstone;
    if (record->record.tombstone) {
      event.record = *it->second;
      event.kind = ListenEvent::Kind::kRemoved;
      event.reason = record->record.reason;
    } else {
      event.kind = was_live ? ListenEvent::Kind::kChanged : ListenEvent::Kind::kAdded;
      event.record = *record;
    }
    it->second = record;
    if (!was_live && record->record.tombstone) return record;
  }
  // The callback may change the subscriptions: `record` is what the view now holds.
  if (subscription.on_change) subscription.on_change(event);
  return record;
}

void Subscriptions::Reconcile(uint64_t id, const GetResult& result) {
  auto it = subscriptions_.find(id);
  if (it == subscriptions_.end()) return;
  Subscription& subscription = it->second;
  std::map<RecordIdentity, bool> present;
  for (const SignedRecordPtr& record : result.records) {
    present[IdentityOf(record->record)] = true;
    Apply(subscription, record);
  }
  // What the full read no longer has has expired everywhere.
  std::vector<RecordIdentity> gone;
  for (const auto& [identity, record] : subscription.view) {
    if (!present.contains(identity)) gone.push_back(identity);
  }
  for (const RecordIdentity& identity : gone) {
    const SignedRecordPtr last = subscription.view.at(identity);
    subscription.view.erase(identity);
    if (!last->record.tombstone && subscription.on_change) {
      subscription.on_change(ListenEvent{ListenEvent::Kind::kRemoved, subscription.key, *last});
    }
  }
}

void Subscriptions::Deliver(const Key& key, const SignedRecordPtr& record,
                            const std::optional<wire::GoneRecord>& gone) {
  // Ids first: a callback may subscribe or unsubscribe.
  std::vector<uint64_t> ids;
  for (const auto& [id, subscription] : subscriptions_) {
    if (subscription.key == key) ids.push_back(id);
  }
  for (uint64_t id : ids) {
    auto it = subscriptions_.find(id);
    if (it == subscriptions_.end()) continue;
    Subscription& subscription = it->second;
    if (record != nullptr) Apply(subscription, record);
    if (!gone) continue;
    const RecordIdentity identity{gone->publisher, gone->agent_id, gone->skill_id};
    auto held = subscription.view.find(identity);
    if (held != subscription.view.end() && held->second->record.sequence <= gone->sequence) {
      const SignedRecordPtr last = held->second;
      subscription.view.erase(held);
      if (!last->record.tombstone && subscription.on_change) {
        subscription.on_change(ListenEvent{ListenEvent::Kind::kRemoved, key, *last});
      }
    }
  }
}

void Subscriptions::OnContactAdded(transport::TimePoint now, const Contact& contact) {
  // A newcomer closer to a subscribed key than we are, and than the farthest of the holders
  // the subscription listens on, may hold it now: move the subscription. (A lookup's replies
  // add the very holders a subscription then listens on; they move nothing.)
  for (auto& [id, subscription] : subscriptions_) {
    if (subscription.phase == Phase::kRenewing ||
        !CloserTo(subscription.key, contact.id, node_.id()))
      continue;
    const auto& holders = subscription.holders;
    if (holders.size() >= config_.replication &&
        (std::find(holders.begin(), holders.end(), contact.id) != holders.end() ||
         !CloserTo(subscription.key, contact.id, holders.back()))) {
      continue;
    }
    RenewAt(subscription, std::min(subscription.next_renewal, now));
  }
}

transport::TimePoint Subscriptions::NextDeadline() const {
  if (!subscriptions_.empty() && node_.relay().held_changes() != relays_seen_) {
    return transport::kTimeZero;
  }
  return renewals_due_;
}

void Subscriptions::RenewDue(transport::TimePoint now) {
  if (node_.relay().held_changes() != relays_seen_) {
    relays_seen_ = node_.relay().held_changes();
    for (auto& [id, subscription] : subscriptions_) {
      if (subscription.phase == Phase::kWaiting) subscription.next_renewal = now;
    }
  }
  std::vector<uint64_t> renew;
  for (const auto& [id, subscription] : subscriptions_) {
    if (subscription.phase == Phase::kWaiting && subscription.next_renewal <= now) {
      renew.push_back(id);
    }
  }
  for (uint64_t id : renew) Renew(now, id);
  renewals_due_ = transport::kTimeNever;
  for (const auto& [id, subscription] : subscriptions_) {
    if (subscription.phase == Phase::kWaiting) {
      renewals_due_ = std::min(renewals_due_, subscription.next_renewal);
    }
  }
}

}  // namespace skillnode::kademlia::store
