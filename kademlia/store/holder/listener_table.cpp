// ListenerTable (listener_table.h): LISTEN bookkeeping, pushes with retransmission, expiry.
#include "kademlia/store/holder/listener_table.h"

#include <algorithm>
#include <cassert>
#include <chrono>

namespace skillnode::kademlia::store {
namespace {

// A new listener is sent the records its holder already has (it may have read the key just
// before they arrived); beyond this many, its next renewal's full read catches up.
constexpr size_t kListenInitialPushMax = 32;

}  // namespace

ListenerTable::ListenerTable(Node& node, const DhtConfig& config, const ValueStore& store,
                             RecordOutbox& outbox, DhtStats& stats)
    : node_(node), config_(config), store_(store), outbox_(outbox), stats_(stats) {}

std::optional<uint32_t> ListenerTable::Add(transport::TimePoint now,
                                           const transport::Endpoint& from, const NodeId& id,
                                           const wire::ListenBody& listen) {
  const auto max_s = std::chrono::duration_cast<std::chrono::seconds>(config_.listen_lifetime);
  const auto granted =
      static_cast<uint32_t>(std::clamp<int64_t>(listen.lifetime_seconds, 1, max_s.count()));
  auto& list = listeners_[listen.target];
  auto it = std::find_if(list.begin(), list.end(), [&](const Listener& l) { return l.id == id; });
  due_ = std::min(due_, now + transport::Seconds(granted));
  std::optional<wire::WireContact> relay;
  if (!listen.relays.empty()) relay = listen.relays.front();
  if (it != list.end()) {
    it->endpoint = from;
    it->expires = now + transport::Seconds(granted);
    it->relay = relay;
  } else if (list.size() >= config_.listeners_per_key_max || count_ >= config_.listeners_max) {
    if (list.empty()) listeners_.erase(listen.target);
    return std::nullopt;
  } else {
    const Listener listener{from, id, now + transport::Seconds(granted), relay};
    list.push_back(listener);
    ++count_;
    size_t pushed = 0;
    for (const StoredRecord* held : store_.Get(listen.target)) {
      if (pushed++ == kListenInitialPushMax) break;
      SendPush(now, listener,
               wire::PushBody{listen.target, outbox_.ToWire(now, held->value), std::nullopt}, 1);
    }
  }
  return granted;
}

void ListenerTable::Push(transport::TimePoint now, const wire::PushBody& push) {
  auto it = listeners_.find(push.target);
  if (it == listeners_.end()) return;
  const std::vector<Listener> targets = it->second;  // SendPush may drop listeners
  for (const Listener& listener : targets) SendPush(now, listener, push, 1);
}

void ListenerTable::SendPush(transport::TimePoint now, const Listener& listener,
                             const wire::PushBody& push, size_t attempt) {
  ++(attempt == 1 ? stats_.pushes_sent : stats_.pushes_retried);
  // Through the relay on odd attempts, directly on even ones (or always, without a relay). A
  // holder that is the listener's relay itself sends directly, to where the client keeps its
  // reservation (which its NAT keeps open).
  std::optional<transport::Endpoint> relay;
  transport::Endpoint to = listener.endpoint;
  if (listener.relay && listener.relay->id == node_.id()) {
    to = node_.relay().table().EndpointOf(now, listener.id).value_or(listener.endpoint);
  } else if (listener.relay && attempt % 2 == 1) {
    relay = listener.relay->endpoint;
    ++stats_.pushes_relayed;
  }
  const bool sent = node_.Request(
      now, to, listener.id, push,
      [this, listener, push, attempt](const rpc::RpcResult& result) {
        if (result.status == rpc::RpcStatus::kReplied) return;
        if (result.status == rpc::RpcStatus::kTimedOut && attempt < config_.push_attempts_max) {
          SendPush(result.now, listener, push, attempt + 1);
          return;
        }
        // Unreachable: drop it; a live listener notices at its next renewal and re-subscribes.
        Drop(push.target, listener.id);
      },
      relay);
  if (!sent) ++stats_.listeners_dropped;
}

void ListenerTable::Drop(const Key& key, const NodeId& listener) {
  auto it = listeners_.find(key);
  if (it == listeners_.end()) return;
  const size_t before = it->second.size();
  std::erase_if(it->second, [&](const Listener& l) { return l.id == listener; });
  assert(count_ >= before - it->second.size());
  count_ -= before - it->second.size();
  stats_.listeners_dropped += before - it->second.size();
  if (it->second.empty()) listeners_.erase(it);
}

void ListenerTable::Expire(transport::TimePoint now) {
  due_ = transport::kTimeNever;
  for (auto it = listeners_.begin(); it != listeners_.end();) {
    auto& list = it->second;
    const size_t before = list.size();
    std::erase_if(list, [now](const Listener& l) { return l.expires <= now; });
    assert(count_ >= before - list.size());
    count_ -= before - list.size();
    for (const Listener& l : list) due_ = std::min(due_, l.expires);
    it = list.empty() ? listeners_.erase(it) : std::next(it);
  }
}

}  // namespace skillnode::kademlia::store
