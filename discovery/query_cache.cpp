#include "discovery/query_cache.h"

#include <algorithm>
#include <cassert>

namespace skillnode::discovery {

QueryCache::QueryCache(const CacheConfig& config) : config_(config) {
  assert(!config_.enabled || config_.ttl > transport::Duration::zero());
  assert(config_.refresh_before_expiry >= transport::Duration::zero());
}

std::optional<QueryCache::Hit> QueryCache::Get(transport::TimePoint now, const std::string& key) {
  const auto found = index_.find(key);
  if (!config_.enabled || found == index_.end()) {
    ++stats_.misses;
    return std::nullopt;
  }
  const Lru::iterator slot = found->second;
  if (now >= slot->entry.expires) {
    Erase(slot);
    ++stats_.expired;
    ++stats_.misses;
    return std::nullopt;
  }
  ++stats_.hits;
  lru_.splice(lru_.begin(), lru_, slot);
  const Entry& entry = slot->entry;
  return Hit{&entry, now >= entry.expires - config_.refresh_before_expiry};
}

void QueryCache::Put(transport::TimePoint now, const std::string& key,
                     std::vector<SkillEntryPtr> records, std::optional<transport::Duration> ttl) {
  if (!config_.enabled || config_.size_max == 0) return;
  ++changes_;
  Entry entry{std::move(records), now, now + std::min(ttl.value_or(config_.ttl), config_.ttl),
              changes_};
  const auto found = index_.find(key);
  if (found != index_.end()) {
    found->second->entry = std::move(entry);
    lru_.splice(lru_.begin(), lru_, found->second);
    return;
  }
  lru_.push_front(Slot{key, std::move(entry)});
  index_.emplace(key, lru_.begin());
  while (index_.size() > config_.size_max) {
    Erase(std::prev(lru_.end()));
    ++stats_.evictions;
  }
}

uint64_t QueryCache::VersionOf(std::string_view key) const {
  const auto found = index_.find(key);
  return found == index_.end() ? 0 : found->second->entry.version;
}

void QueryCache::InvalidateSkill(std::string_view skill_id) {
  for (auto slot = lru_.begin(); slot != lru_.end();) {
    const auto& records = slot->entry.records;
    const bool holds = std::any_of(records.begin(), records.end(), [skill_id](const auto& r) {
      return r->record().skill_id == skill_id;
    });
    const auto next = std::next(slot);
    if (holds) {
      Erase(slot);
      ++stats_.invalidations;
    }
    slot = next;
  }
}

void QueryCache::InvalidatePrefix(std::string_view prefix) {
  for (auto slot = lru_.begin(); slot != lru_.end();) {
    const auto next = std::next(slot);
    if (std::string_view(slot->key).starts_with(prefix)) {
      Erase(slot);
      ++stats_.invalidations;
    }
    slot = next;
  }
}

size_t QueryCache::RemoveExpired(transport::TimePoint now) {
  size_t removed = 0;
  for (auto slot = lru_.begin(); slot != lru_.end();) {
    const auto next = std::next(slot);
    if (now >= slot->entry.expires) {
      Erase(slot);
      ++removed;
    }
    slot = next;
  }
  stats_.expired += removed;
  return removed;
}

void QueryCache::Clear() {
  stats_.invalidations += index_.size();
  ++changes_;
  index_.clear();
  lru_.clear();
}

void QueryCache::Erase(Lru::iterator slot) {
  ++changes_;
  index_.erase(slot->key);
  lru_.erase(slot);
}

}  // namespace skillnode::discovery
