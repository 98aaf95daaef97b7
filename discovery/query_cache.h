// QueryCache: recent search results, keyed by CanonicalQueryKey (spec section 11).
//
// An entry lives for `ttl` after it is stored; once `refresh_before_expiry` or less remains, a
// hit says so, and the caller may refresh it in the background while still answering from it.
// Beyond `size_max` entries the least recently used is evicted. Invalidation (section 11.2):
// TTL expiry here; unregistration and health changes through InvalidateSkill; a manual refresh
// through Clear.
//
// Pure: the caller passes `now`; no timers. Not thread-safe (one loop, one thread).
#ifndef SKILLNODE_DISCOVERY_QUERY_CACHE_H_
#define SKILLNODE_DISCOVERY_QUERY_CACHE_H_

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/skill_entry.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/clock.h"

namespace skillnode::discovery {

// The seed's defaults (spec section 11.1).
constexpr transport::Duration kCacheTtlDefault = transport::Seconds(300);
constexpr size_t kCacheSizeMaxDefault = 1000;
constexpr transport::Duration kCacheRefreshBeforeExpiryDefault = transport::Seconds(60);

struct CacheConfig {
  bool enabled = true;
  transport::Duration ttl = kCacheTtlDefault;  // > 0 when enabled
  size_t size_max = kCacheSizeMaxDefault;
  transport::Duration refresh_before_expiry = kCacheRefreshBeforeExpiryDefault;
};

struct CacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;         // includes lookups that found an expired entry
  uint64_t expired = 0;        // entries dropped because their TTL passed
  uint64_t evictions = 0;      // entries dropped to stay within size_max
  uint64_t invalidations = 0;  // entries dropped by InvalidateSkill or Clear
};

class QueryCache {
 public:
  explicit QueryCache(const CacheConfig& config);

  struct Entry {
    std::vector<SkillEntryPtr> records;
    transport::TimePoint stored;
    transport::TimePoint expires;
    // A number no other Put gave: what an answer made from this entry was made from.
    uint64_t version = 0;
  };
  struct Hit {
    const Entry* entry;  // valid until the next call that is not const
    bool refresh_due;    // now >= expires - refresh_before_expiry
  };

  // A live entry for `key`, now most recently used. Counts a hit or a miss; an expired entry
  // is removed and counts as a miss. A disabled cache always misses.
  std::optional<Hit> Get(transport::TimePoint now, const std::string& key);
  // Stores (or replaces) the entry for `key`, expiring at now + ttl, as most recently used;
  // evicts the least recently used entries beyond size_max. A disabled cache stores nothing.
  // `ttl` shortens the entry's life below the cache's own (a SkillCenter answer's TTL).
  void Put(transport::TimePoint now, const std::string& key, std::vector<SkillEntryPtr> records,
           std::optional<transport::Duration> ttl = std::nullopt);
  // Counts a hit served from an answer made of an entry (the searcher's reused answers).
  void CountHit() { ++stats_.hits; }
  // Drops every entry holding a record of `skill_id` (any agent).
  void InvalidateSkill(std::string_view skill_id);
  // Drops every entry whose key starts with `prefix` (the searcher prefixes its keys with the
  // DHT key an answer came from, so that news under that key drops the answers it fed).
  void InvalidatePrefix(std::string_view prefix);
  // Drops expired entries; returns how many. Get drops them too; this bounds memory in between.
  size_t RemoveExpired(transport::TimePoint now);
  // Drops every entry (a manual refresh).
  void Clear();

  size_t size() const { return index_.size(); }
  // Grows with every entry stored, replaced or dropped.
  uint64_t changes() const { return changes_; }
  // The version of the entry for `key`, expired or not; 0 when there is none. Counts nothing
  // and leaves the order of use as it is.
  uint64_t VersionOf(std::string_view key) const;
  const CacheStats& stats() const { return stats_; }
  const CacheConfig& config() const { return config_; }

 private:
  struct Slot {
    std::string key;
    Entry entry;
  };
  using Lru = std::list<Slot>;  // most recently used first

  void Erase(Lru::iterator slot);

  CacheConfig config_;
  Lru lru_;
  std::map<std::string, Lru::iterator, std::less<>> index_;
  CacheStats stats_;
  uint64_t changes_ = 0;
};

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_QUERY_CACHE_H_
