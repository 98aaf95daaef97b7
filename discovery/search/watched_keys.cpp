// WatchedKeys: DHT subscriptions that keep cached answers honest and feed watchers.
#include "discovery/search/watched_keys.h"

#include <cassert>
#include <utility>

namespace skillnode::discovery::search {

using kademlia::Key;
using kademlia::store::SkillRecord;

WatchedKeys::WatchedKeys(kademlia::store::SkillDht& dht, QueryCache& cache, size_t watched_keys_max,
                         size_t watchers_max, uint64_t& invalidations)
    : dht_(dht),
      cache_(cache),
      watched_keys_max_(watched_keys_max),
      watchers_max_(watchers_max),
      invalidations_(invalidations) {}

WatchedKeys::~WatchedKeys() {
  for (auto& [key, watched] : watched_) dht_.Unlisten(watched.subscription);
}

uint64_t WatchedKeys::ListenForCache(transport::TimePoint now, const Key& key,
                                     const kademlia::store::GetResult& fresh) {
  WatchedKey* watched = Subscribe(now, key, &fresh);
  if (watched == nullptr) return 0;
  watched->for_cache = true;
  return watched->subscription;
}

void WatchedKeys::NoteCachedAnswers(const Key& key, const std::vector<SkillEntryPtr>& live) {
  auto it = watched_.find(key);
  assert(it != watched_.end() && it->second.for_cache);
  for (const SkillEntryPtr& entry : live) {
    it->second.cached_versions[kademlia::store::IdentityOf(entry->record())] =
        entry->record().sequence;
  }
  it->second.has_cached_answers = true;
}

WatchedKeys::WatchedKey* WatchedKeys::Subscribe(transport::TimePoint now, const Key& key,
                                                const kademlia::store::GetResult* fresh) {
  if (auto it = watched_.find(key); it != watched_.end()) {
    it->second.last_used = now;
    return &it->second;
  }
  if (watched_.size() >= watched_keys_max_) {
    // Make room by dropping the least recently used key that only the cache needs; the
    // cached answers that relied on it go too.
    auto victim = watched_.end();
    for (auto it = watched_.begin(); it != watched_.end(); ++it) {
      if (!it->second.watchers.empty()) continue;
      if (victim == watched_.end() || it->second.last_used < victim->second.last_used) victim = it;
    }
    if (victim == watched_.end()) return nullptr;
    cache_.InvalidatePrefix(victim->first.ToHex());
    DropKey(victim);
  }
  auto [it, inserted] = watched_.try_emplace(key);
  it->second.last_used = now;
  it->second.subscription = dht_.Listen(
      now, key, [this, key](const kademlia::store::ListenEvent& event) { OnKeyChange(key, event); },
      fresh);
  if (it->second.subscription == 0) {
    watched_.erase(it);
    return nullptr;
  }
  return &it->second;
}

void WatchedKeys::OnKeyChange(const Key& key, const kademlia::store::ListenEvent& event) {
  auto it = watched_.find(key);
  if (it == watched_.end()) return;
  if (it->second.for_cache && it->second.has_cached_answers) {
    const SkillRecord& record = event.record.record;
    auto known = it->second.cached_versions.find(kademlia::store::IdentityOf(record));
    const bool news = event.kind == kademlia::store::ListenEvent::Kind::kRemoved ||
                      known == it->second.cached_versions.end() || known->second != record.sequence;
    if (news) DropCachedAnswers(it);
  }
  // Copies: a watcher may unwatch (or watch) from its callback.
  std::vector<WatchCallback> callbacks;
  for (const auto& [id, callback] : it->second.watchers) callbacks.push_back(callback);
  for (const WatchCallback& callback : callbacks) callback(event);
}

void WatchedKeys::InvalidateRecord(const SkillRecord& record) {
  for (const Key& key : kademlia::store::RecordKeys(record)) {
    auto it = watched_.find(key);
    if (it == watched_.end() || !it->second.has_cached_answers) continue;
    DropCachedAnswers(it);
  }
}

void WatchedKeys::DropCachedAnswers(Keys::iterator it) {
  ++invalidations_;
  it->second.cached_versions.clear();
  it->second.has_cached_answers = false;
  cache_.InvalidatePrefix(it->first.ToHex());
}

void WatchedKeys::DropKey(Keys::iterator it) {
  dht_.Unlisten(it->second.subscription);
  for (const auto& [id, callback] : it->second.watchers) watchers_.erase(id);
  watched_.erase(it);
}

uint64_t WatchedKeys::Watch(transport::TimePoint now, const Key& key, WatchCallback on_change) {
  if (watchers_.size() >= watchers_max_) return 0;
  WatchedKey* watched = Subscribe(now, key);
  if (watched == nullptr) return 0;
  const uint64_t id = next_watch_++;
  watched->watchers.emplace(id, std::move(on_change));
  watchers_.emplace(id, key);
  // The subscription may already know the current records: replay them to the newcomer.
  for (const auto& record : dht_.ListenView(watched->subscription)) {
    watched->watchers[id](
        kademlia::store::ListenEvent{kademlia::store::ListenEvent::Kind::kAdded, key, record});
  }
  return id;
}

void WatchedKeys::Unwatch(uint64_t watch) {
  auto it = watchers_.find(watch);
  if (it == watchers_.end()) return;
  auto key = watched_.find(it->second);
  watchers_.erase(it);
  if (key == watched_.end()) return;
  key->second.watchers.erase(watch);
  if (key->second.watchers.empty() && !key->second.for_cache) DropKey(key);
}

}  // namespace skillnode::discovery::search
