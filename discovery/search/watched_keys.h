// WatchedKeys: the searcher's DHT-listen side. Subscriptions on DHT keys keep cached answers
// honest (a change under a key drops the cached answers looked up under it) and feed
// watchers (Server-Sent Events) of a key.
//
// A key is listened on for the cache once an answer looked up under it is cached, and for as
// long as watchers want it. At most `watched_keys_max` keys are listened on: a new one makes
// room by dropping the least recently used key that only the cache needs (its cached answers
// go too), or is refused. At most `watchers_max` watchers in all.
//
// Owned by Searcher; holds references to the DHT and the cache, which must outlive it; the
// DHT's listen callbacks point back at it, so it is neither copied nor moved. Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_WATCHED_KEYS_H_
#define SKILLNODE_DISCOVERY_SEARCH_WATCHED_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "discovery/query_cache.h"
#include "discovery/search/search_types.h"
#include "kademlia/store/skill_dht.h"

namespace skillnode::discovery::search {

class WatchedKeys {
 public:
  // `invalidations` counts every drop of a key's cached answers (Searcher's stats).
  WatchedKeys(kademlia::store::SkillDht& dht, QueryCache& cache, size_t watched_keys_max,
              size_t watchers_max, uint64_t& invalidations);
  WatchedKeys(const WatchedKeys&) = delete;
  WatchedKeys& operator=(const WatchedKeys&) = delete;
  ~WatchedKeys();  // ends every subscription

  // Listens on `key` for the cache; returns its subscription, or 0 when there is no room.
  // `fresh` is the get of `key` that has just finished: a new subscription starts from it
  // rather than reading the key again.
  uint64_t ListenForCache(transport::TimePoint now, const kademlia::Key& key,
                          const kademlia::store::GetResult& fresh);
  // Notes that answers under `key` (listened on for the cache) are cached, holding `live`:
  // an event that only repeats one of those versions (the subscription's first sync) is no
  // news and keeps them.
  void NoteCachedAnswers(const kademlia::Key& key, const std::vector<SkillEntryPtr>& live);
  // Drops the cached answers that `record` could be part of: those looked up under its keys.
  void InvalidateRecord(const kademlia::store::SkillRecord& record);

  // Calls `on_change` for every change under `key` (the current records first, as kAdded).
  // Returns a watch id, or 0 when watchers_max or watched_keys_max are reached.
  uint64_t Watch(transport::TimePoint now, const kademlia::Key& key, WatchCallback on_change);
  void Unwatch(uint64_t watch);

  size_t watchers() const { return watchers_.size(); }
  size_t watched_keys() const { return watched_.size(); }

 private:
  struct WatchedKey {
    uint64_t subscription = 0;
    std::map<uint64_t, WatchCallback> watchers;  // by watch id
    bool for_cache = false;
    bool has_cached_answers = false;  // answers under this key are in the cache
    // The versions the cached answers under this key hold.
    std::map<kademlia::store::RecordIdentity, uint64_t> cached_versions;
    transport::TimePoint last_used = transport::kTimeZero;
  };
  using Keys = std::map<kademlia::Key, WatchedKey>;

  WatchedKey* Subscribe(transport::TimePoint now, const kademlia::Key& key,
                        const kademlia::store::GetResult* fresh = nullptr);
  void OnKeyChange(const kademlia::Key& key, const kademlia::store::ListenEvent& event);
  // Drops the cached answers under the key `it` and what it knew of them.
  void DropCachedAnswers(Keys::iterator it);
  void DropKey(Keys::iterator it);

  kademlia::store::SkillDht& dht_;
  QueryCache& cache_;
  size_t watched_keys_max_;
  size_t watchers_max_;
  uint64_t& invalidations_;
  Keys watched_;
  std::map<uint64_t, kademlia::Key> watchers_;  // watch id -> key
  uint64_t next_watch_ = 1;
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_WATCHED_KEYS_H_
