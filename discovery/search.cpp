#include "discovery/search.h"

#include <algorithm>
#include <set>
#include <utility>

#include "discovery/search_internal.h"

namespace skillnode::discovery {

using kademlia::Key;
using kademlia::RecordIdentity;
using kademlia::SkillRecord;

std::string_view DiscCode(DiscError error) {
  switch (error) {
    case DiscError::kTimeout:
      return "DISC_001";
    case DiscError::kNoSkills:
      return "DISC_002";
    case DiscError::kRegistrationFailed:
      return "DISC_003";
    case DiscError::kVerification:
      return "DISC_004";
    case DiscError::kNetwork:
      return "DISC_005";
    case DiscError::kUnavailable:
      return "DISC_006";
  }
  return "DISC_005";
}

int DiscHttpStatus(DiscError error) {
  switch (error) {
    case DiscError::kTimeout:
      return 504;
    case DiscError::kNoSkills:
      return 404;
    case DiscError::kRegistrationFailed:
      return 400;
    case DiscError::kVerification:
      return 502;
    case DiscError::kNetwork:
    case DiscError::kUnavailable:
      return 503;
  }
  return 503;
}

Searcher::Searcher(kademlia::SkillDht& dht, const Registry& registry, const SearchConfig& config,
                   const CacheConfig& cache_config)
    : dht_(dht), registry_(registry), config_(config), cache_(cache_config) {}

Searcher::~Searcher() {
  for (auto& [key, watched] : watched_) dht_.Unlisten(watched.subscription);
}

std::optional<Key> Searcher::QueryKey(const SkillQuery& query) {
  if (query.skill_id && !query.capabilities.empty()) {
    return kademlia::SkillCapabilityKey(*query.skill_id, query.capabilities.front());
  }
  if (!query.capabilities.empty()) return kademlia::CapabilityKey(query.capabilities.front());
  if (!query.scenes.empty()) return kademlia::SceneKey(query.scenes.front());
  if (query.skill_id) return kademlia::SkillKey(*query.skill_id);
  // Types are ANY-of: one key covers the query only when it names one type.
  if (query.capability_types.size() == 1) {
    return kademlia::CapabilityTypeKey(query.capability_types.front());
  }
  return std::nullopt;
}

void Searcher::Search(TimePoint now, const SkillQuery& query, const SearchOptions& options,
                      SearchCallback done) {
  ++stats_.searches;
  auto pending = std::make_shared<Pending>();
  pending->query = query;
  pending->options = options;
  pending->done = std::move(done);
  pending->started = now;
  const std::optional<Key> key = QueryKey(query);
  pending->cache_key = key ? CacheKey(*key, query) : CanonicalQueryKey(query);

  size_t local = 0;
  for (const SkillRecord& record : registry_.Find(query)) {
    pending->Add(record, Source::kLocal);
    ++local;
  }
  pending->Report("local", local > 0 ? "found" : "none", local, now);

  const bool use_lan = lan_ != nullptr && options.use_lan;
  size_t lan_found = 0;
  if (use_lan) {
    for (const SkillRecord& record : lan_->FindOnLan(query)) {
      pending->Add(record, Source::kLan);
      ++lan_found;
    }
    pending->Report("lan", lan_found > 0 ? "found" : "none", lan_found, now);
  }

  if (options.use_cache) {
    if (auto hit = cache_.Get(now, pending->cache_key)) {
      for (const SkillRecord& record : hit->entry->records) pending->Add(record, Source::kCache);
      pending->Report("cache", "found", hit->entry->records.size(), now);
      const bool refresh = hit->refresh_due;
      Finish(pending, now);
      if (!refresh) return;  // else refresh in the background: the DHT answer replaces it
    } else {
      pending->Report("cache", "none", 0, now);
    }
  }

  if (use_lan && lan_found == 0) StartLan(now, pending);
  if (!key) {
    const size_t before = pending->merged.size();
    ScanStore(pending);
    pending->Report("dht", "found", pending->merged.size() - before, now);
    pending->dht_done = true;
    AfterDht(pending, now);
    return;
  }
  StartDht(now, pending, *key);
}

void Searcher::StartLan(TimePoint now, const std::shared_ptr<Pending>& pending) {
  std::weak_ptr<int> alive = alive_;
  pending->lan_waiting = true;
  const bool started = lan_->DiscoverOnLan(
      now, pending->query, [this, alive, pending](TimePoint at, std::vector<SkillRecord> records) {
        if (alive.expired() || !pending->lan_waiting) return;
        pending->lan_waiting = false;
        for (const SkillRecord& record : records) pending->Add(record, Source::kLan);
        pending->Report("lan-discover", records.empty() ? "none" : "found", records.size(), at);
        if (pending->dht_done && pending->MayFinish()) Finish(pending, at);
      });
  if (started) {
    ++stats_.lan_rounds;
  } else if (pending->lan_waiting) {
    pending->lan_waiting = false;
    pending->Report("lan-discover", "skipped", 0, now);
  }
}

void Searcher::StartDht(TimePoint now, const std::shared_ptr<Pending>& pending, const Key& key) {
  pending->dht_key = key;
  bool started = false;
  if (pending_.size() < config_.searches_in_flight_max) {
    std::weak_ptr<int> alive = alive_;
    started = dht_.Get(now, key, kademlia::GetOptions{},
                       [this, alive, pending](const kademlia::GetResult& result) {
                         if (alive.expired() || pending->dht_done) return;
                         FinishDht(pending, result.finished, &result);
                       });
  }
  if (!started) {
    ++stats_.busy;
    pending->dht_done = true;
    pending->dht_busy = true;
    pending->Report("dht", "skipped", 0, now);
    FinishDht(pending, now, nullptr);
    return;
  }
  ++stats_.dht_gets;
  if (!pending->dht_done) {
    pending->dht_deadline = now + config_.dht_timeout;
    pending_.push_back(pending);
  }
}

void Searcher::FinishDht(const std::shared_ptr<Pending>& pending, TimePoint now,
                         const kademlia::GetResult* result) {
  if (!pending->dht_done) {
    pending->dht_done = true;
    std::erase(pending_, pending);
    if (result == nullptr) {
      pending->dht_timed_out = true;
      ++stats_.dht_timeouts;
      pending->Report("dht", "timeout", 0, now);
    } else {
      // Messages sent and not one answer: no node could be reached (a lone node sends none).
      pending->dht_unreachable = result->stats.messages > 0 && result->stats.replies == 0;
      if (pending->dht_unreachable) ++stats_.dht_failures;
      // A reachable DHT's answer is cached, and the key watched so that the cache learns of
      // changes. The subscription starts from what this read saw (its own first read may still
      // be running), so a removal that follows is reported; and what it already knows to be
      // newer, a tombstone that came while this read ran, replaces what the read saw.
      WatchedKey* watched =
          pending->dht_unreachable ? nullptr : WatchForCache(now, pending->dht_key);
      const std::vector<kademlia::SignedRecord> current =
          watched != nullptr ? dht_.Observe(watched->subscription, result->records)
                             : result->records;
      std::vector<SkillRecord> live;
      for (const auto& signed_record : current) {
        pending->Add(signed_record.record, Source::kDht);
        if (!signed_record.record.tombstone && Matches(pending->query, signed_record.record)) {
          live.push_back(signed_record.record);
        }
      }
      pending->Report("dht",
                      pending->dht_unreachable ? "failed"
                      : live.empty()           ? "none"
                                               : "found",
                      live.size(), now);
      if (watched != nullptr) {
        for (const SkillRecord& record : live) {
          watched->cached_versions[kademlia::IdentityOf(record)] = record.sequence;
        }
        watched->has_cached_answers = true;
        // With a SkillCenter stage an empty DHT answer is not cached: the catalog's answer is
        // (and stays when a background refresh finds nothing in the DHT), and when the catalog
        // fails the next search must ask again rather than hit a cached "nothing".
        const bool center = skill_center_ != nullptr && pending->options.use_skillcenter;
        if (!live.empty() || !center) cache_.Put(now, pending->cache_key, std::move(live));
      }
    }
  }
  AfterDht(pending, now);
}

void Searcher::ScanStore(const std::shared_ptr<Pending>& pending) {
  const kademlia::ValueStore& store = dht_.store();
  for (const Key& key : store.Keys()) {
    for (const kademlia::StoredRecord* held : store.Get(key)) {
      const SkillRecord& record = held->value.record;
      if (record.tombstone || Matches(pending->query, record)) pending->Add(record, Source::kDht);
    }
  }
}

void Searcher::Finish(const std::shared_ptr<Pending>& pending, TimePoint now) {
  (void)now;
  if (pending->answered) return;
  pending->answered = true;
  std::vector<SkillRecord> records;
  std::map<RecordIdentity, Source> sources;
  // What a signed record (local, DHT, cache) says of a skill beats what the LAN heard of it,
  // and what a SkillCenter said of it unless that is newer. The newest signed time per skill:
  std::map<std::pair<std::string, std::string>, uint64_t> signed_skills;
  for (const auto& [identity, found] : pending->merged) {
    if (found.source == Source::kLan || Unsigned(found.record)) continue;
    auto [it, inserted] = signed_skills.try_emplace({identity.agent_id, identity.skill_id},
                                                    found.record.timestamp_ms);
    if (!inserted) it->second = std::max(it->second, found.record.timestamp_ms);
  }
  for (const auto& [identity, found] : pending->merged) {
    if (found.record.tombstone || !Matches(pending->query, found.record)) continue;
    const auto signed_it = signed_skills.find({identity.agent_id, identity.skill_id});
    if (signed_it != signed_skills.end()) {
      if (found.source == Source::kLan) continue;
      if (Unsigned(found.record) && signed_it->second >= found.record.timestamp_ms) continue;
    }
    records.push_back(found.record);
    sources[identity] = found.source;
  }
  Rank(records);
  if (records.size() > config_.results_max) records.resize(config_.results_max);
  SearchResult result;
  result.stages = pending->stages;
  for (SkillRecord& record : records) {
    const Source source = sources[kademlia::IdentityOf(record)];
    result.skills.push_back(Found{std::move(record), source});
  }
  if (result.skills.empty()) {
    ++stats_.not_found;
    if (pending->dht_timed_out) {
      result.error = DiscError::kTimeout;
      result.message = "the DHT lookup did not finish within " +
                       std::to_string(config_.dht_timeout.count() / 1000) + " ms";
    } else if (pending->dht_unreachable) {
      result.error = DiscError::kNetwork;
      result.message = "no DHT node answered, and no cached answer is available";
    } else if (pending->center_timed_out) {
      result.error = DiscError::kTimeout;
      result.message = pending->center_message;
    } else if (pending->center_failed) {
      result.error = DiscError::kNetwork;
      result.message = pending->center_message + ", and no cached answer is available";
    } else if (pending->dht_busy) {
      result.error = DiscError::kNetwork;
      result.message = "this node runs its maximum of DHT lookups; try again shortly";
    } else {
      result.error = DiscError::kNoSkills;
      result.message = "no skill matches the query";
    }
  }
  SearchCallback done = std::move(pending->done);
  pending->done = nullptr;
  if (done) done(std::move(result));
}

void Searcher::OnTimer(TimePoint now) {
  std::vector<std::shared_ptr<Pending>> due;
  for (const auto& pending : pending_) {
    if (pending->dht_deadline <= now) due.push_back(pending);
  }
  for (const auto& pending : due) FinishDht(pending, now, nullptr);
}

TimePoint Searcher::NextDeadline() const {
  TimePoint next = kTimeNever;
  for (const auto& pending : pending_) next = std::min(next, pending->dht_deadline);
  return next;
}

std::string Searcher::CacheKey(const Key& key, const SkillQuery& query) {
  return key.ToHex() + "|" + CanonicalQueryKey(query);
}

}  // namespace skillnode::discovery
