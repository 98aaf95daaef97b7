// SkillDht's listen feature: holders push every change under a key to subscribed listeners,
// with acknowledgements and retransmission; listeners renew their subscriptions, re-read the
// key with a full get on every renewal (so anything missed while cut off is recovered, exactly,
// by sequence numbers) and follow the closest holders as they change.
#include <algorithm>

#include "kademlia/store/skill_dht.h"

namespace skillnode::kademlia {
namespace {

// After a failed subscription, the listener tries again this soon.
const Duration kListenRetry = Seconds(5);
// A new listener is sent the records its holder already has (it may have read the key just
// before they arrived); beyond this many, its next renewal's full read catches up.
constexpr size_t kListenInitialPushMax = 32;

bool Belongs(const SkillRecord& record, const Key& key) {
  const auto keys = RecordKeys(record);
  return std::binary_search(keys.begin(), keys.end(), key);
}

}  // namespace

Body SkillDht::HandleListen(TimePoint now, const Endpoint& from, const NodeId& id,
                            const ListenBody& listen) {
  const auto max_s = std::chrono::duration_cast<std::chrono::seconds>(config_.listen_lifetime);
  const auto granted =
      static_cast<uint32_t>(std::clamp<int64_t>(listen.lifetime_seconds, 1, max_s.count()));
  auto& list = listeners_[listen.target];
  auto it = std::find_if(list.begin(), list.end(), [&](const Listener& l) { return l.id == id; });
  listeners_due_ = std::min(listeners_due_, now + Seconds(granted));
  if (it != list.end()) {
    it->endpoint = from;
    it->expires = now + Seconds(granted);
  } else if (list.size() >= config_.listeners_per_key_max ||
             listener_count_ >= config_.listeners_max) {
    if (list.empty()) listeners_.erase(listen.target);
    return Refuse(ErrorReplyCode::kListenersFull, "no room for another listener");
  } else {
    const Listener listener{from, id, now + Seconds(granted)};
    list.push_back(listener);
    ++listener_count_;
    size_t pushed = 0;
    for (const StoredRecord* held : store_.Get(listen.target)) {
      if (pushed++ == kListenInitialPushMax) break;
      SendPush(now, listener,
               PushBody{listen.target, WireRecord{held->value->encoded, held->value->signature},
                        std::nullopt},
               1);
    }
  }
  return ListeningBody{granted};
}

void SkillDht::Notify(TimePoint now, const Key& key, const PushBody& push,
                      const SignedRecordPtr& record) {
  // Our own subscriptions learn a change to our own store here: no holder pushes it to us.
  DeliverToSubscriptions(key, record, push.gone);
  auto it = listeners_.find(key);
  if (it == listeners_.end()) return;
  const std::vector<Listener> targets = it->second;  // SendPush may drop listeners
  for (const Listener& listener : targets) SendPush(now, listener, push, 1);
}

void SkillDht::SendPush(TimePoint now, const Listener& listener, const PushBody& push,
                        size_t attempt) {
  ++(attempt == 1 ? stats_.pushes_sent : stats_.pushes_retried);
  const bool sent = node_.Request(
      now, listener.endpoint, listener.id, push,
      [this, listener, push, attempt](const RpcResult& result) {
        if (result.status == RpcStatus::kReplied) return;
        if (result.status == RpcStatus::kTimedOut && attempt < config_.push_attempts_max) {
          SendPush(result.now, listener, push, attempt + 1);
          return;
        }
        // Unreachable: drop it; a live listener notices at its next renewal and re-subscribes.
        auto it = listeners_.find(push.target);
        if (it == listeners_.end()) return;
        const size_t before = it->second.size();
        std::erase_if(it->second, [&](const Listener& l) { return l.id == listener.id; });
        listener_count_ -= before - it->second.size();
        stats_.listeners_dropped += before - it->second.size();
        if (it->second.empty()) listeners_.erase(it);
      });
  if (!sent) ++stats_.listeners_dropped;
}

uint64_t SkillDht::Listen(TimePoint now, const Key& key, ListenCallback on_change,
                          const GetResult* fresh) {
  if (subscriptions_.size() >= config_.subscriptions_max) return 0;
  const uint64_t id = next_subscription_++;
  subscriptions_[id] = Subscription{key, std::move(on_change), {}, now, false, {}};
  if (fresh != nullptr && fresh->key == key && !fresh->closest.empty()) {
    ++stats_.subscriptions_seeded;
    Subscribed(id, *fresh);
  } else {
    Renew(now, id);
  }
  return id;
}

void SkillDht::Unlisten(uint64_t subscription) { subscriptions_.erase(subscription); }

std::vector<SignedRecordPtr> SkillDht::Observe(uint64_t subscription,
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
  return current;
}

std::vector<SignedRecord> SkillDht::ListenView(uint64_t subscription) const {
  std::vector<SignedRecord> out;
  auto it = subscriptions_.find(subscription);
  if (it == subscriptions_.end()) return out;
  for (const auto& [identity, record] : it->second.view) {
    if (!record->record.tombstone) out.push_back(*record);
  }
  return out;
}

void SkillDht::Renew(TimePoint now, uint64_t id) {
  auto it = subscriptions_.find(id);
  if (it == subscriptions_.end()) return;
  it->second.renewing = true;
  ++stats_.subscriptions_renewed;
  const Key key = it->second.key;
  const bool started = Get(now, key, GetOptions{}, [this, id](const GetResult& result) {
    auto sub = subscriptions_.find(id);
    if (sub == subscriptions_.end()) return;
    if (result.closest.empty()) {
      // Nobody answered (we are cut off): that is no evidence that records went; keep the
      // view and try again soon.
      sub->second.renewing = false;
      RenewAt(sub->second, result.finished + kListenRetry);
      return;
    }
    Subscribed(id, result);
  });
  if (!started) {
    it->second.renewing = false;
    RenewAt(it->second, now + kListenRetry);
  }
}

void SkillDht::Subscribed(uint64_t id, const GetResult& result) {
  Reconcile(id, result);
  auto sub = subscriptions_.find(id);  // the callback may have unsubscribed
  if (sub == subscriptions_.end()) return;
  const TimePoint at = result.finished;
  // Subscribe on the r closest holders; renew at half the lifetime, or soon if none took it.
  const uint32_t lifetime = static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(config_.listen_lifetime).count());
  size_t asked = 0;
  sub->second.holders.clear();
  for (const Contact& holder : result.closest) {
    if (asked == config_.replication) break;
    if (node_.Request(at, holder.endpoint, holder.id, ListenBody{result.key, lifetime}, nullptr)) {
      ++asked;
      sub->second.holders.push_back(holder.id);
    }
  }
  sub->second.renewing = false;
  RenewAt(sub->second, at + (asked > 0 ? config_.listen_lifetime / 2 : kListenRetry));
}

SignedRecordPtr SkillDht::Apply(Subscription& subscription, const SignedRecordPtr& record) {
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

void SkillDht::Reconcile(uint64_t id, const GetResult& result) {
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

Body SkillDht::HandlePush(TimePoint now, const PushBody& push) {
  ++stats_.pushes_received;
  SignedRecordPtr record;
  if (push.record) {
    auto verified = Verify(*push.record);
    if (!verified || !Belongs((*verified)->record, push.target)) {
      return Refuse(verified ? ErrorReplyCode::kWrongKey : ErrorReplyCode::kBadRecord,
                    "pushed record refused");
    }
    if (auto inside = CheckWindow(now, (*verified)->record); !inside) {
      ++stats_.records_outside_window;
      return Refuse(ErrorReplyCode::kOutsideWindow, inside.error().message);
    }
    if (policy_ && !policy_(**verified)) {
      ++stats_.records_uncertified;
      return Refuse(ErrorReplyCode::kUncertified, "pushed record's publisher is not certified");
    }
    record = std::move(*verified);
  }
  DeliverToSubscriptions(push.target, record, push.gone);
  return PushAckBody{};
}

void SkillDht::DeliverToSubscriptions(const Key& key, const SignedRecordPtr& record,
                                      const std::optional<GoneRecord>& gone) {
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

}  // namespace skillnode::kademlia
