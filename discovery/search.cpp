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
  std::string answer_key;
  if (options.use_cache && cache_.config().enabled) {
    answer_key = pending->cache_key + (options.use_lan ? "|lan" : "|-") +
                 (options.use_skillcenter ? "|center" : "|-");
    auto answer = answers_.find(answer_key);
    if (answer != answers_.end() && answer->second.changes == Changes() &&
        now < answer->second.fresh_until) {
      ++stats_.answers_reused;
      cache_.CountHit();
      // Held here: the callback may search again and drop the answer.
      const std::shared_ptr<const SearchResult> result = answer->second.result;
      pending->done(*result);
      return;
    }
  }

  size_t local = 0;
  for (const SkillEntryPtr& entry : registry_.FindEntries(query)) {
    pending->Add(entry, Source::kLocal, true);
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
      for (const SkillEntryPtr& entry : hit->entry->records) {
        pending->Add(entry, Source::kCache, true);
      }
      pending->Report("cache", "found", hit->entry->records.size(), now);
      const bool refresh = hit->refresh_due;
      if (!refresh) {
        pending->answer_key = std::move(answer_key);
        pending->answer_fresh_until = hit->entry->expires - cache_.config().refresh_before_expiry;
      }
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
      // changes. A new subscription starts from this read, and subscribes on the holders it
      // found, so a removal that follows is reported; an older subscription already knows
      // what is newer, a tombstone that came while this read ran, and that replaces what the
      // read saw.
      WatchedKey* watched =
          pending->dht_unreachable ? nullptr : WatchForCache(now, pending->dht_key, *result);
      const std::vector<kademlia::SignedRecordPtr> current =
          watched != nullptr ? dht_.Observe(watched->subscription, result->records)
                             : result->records;
      std::vector<SkillEntryPtr> live;
      for (const auto& signed_record : current) {
        const SkillRecord& record = signed_record->record;
        const Found& held = pending->Add(record, Source::kDht);
        if (!record.tombstone && Matches(pending->query, record)) {
          // The entry the merge holds is shared when it is this very version.
          live.push_back(held.record().sequence == record.sequence ? held.entry
                                                                   : SkillEntry::Make(record));
        }
      }
      pending->Report("dht",
                      pending->dht_unreachable ? "failed"
                      : live.empty()           ? "none"
                                               : "found",
                      live.size(), now);
      if (watched != nullptr) {
        for (const SkillEntryPtr& entry : live) {
          watched->cached_versions[kademlia::IdentityOf(entry->record())] =
              entry->record().sequence;
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
      const SkillRecord& record = held->value->record;
      if (record.tombstone || Matches(pending->query, record)) pending->Add(record, Source::kDht);
    }
  }
}

void Searcher::Finish(const std::shared_ptr<Pending>& pending, TimePoint now) {
  (void)now;
  if (pending->answered) return;
  pending->answered = true;
  // What a signed record (local, DHT, cache) says of a skill beats what the LAN heard of it,
  // and what a SkillCenter said of it unless that is newer. The newest signed time per skill,
  // needed only when the LAN or a SkillCenter found something:
  std::map<std::pair<std::string_view, std::string_view>, uint64_t> signed_skills;
  const bool mixed = std::any_of(pending->merged.begin(), pending->merged.end(), [](const auto& m) {
    return m.second.found.source == Source::kLan || Unsigned(m.second.found.record());
  });
  if (mixed) {
    for (const auto& [identity, merged] : pending->merged) {
      const Found& found = merged.found;
      if (found.source == Source::kLan || Unsigned(found.record())) continue;
      auto [it, inserted] = signed_skills.try_emplace({identity.agent_id, identity.skill_id},
                                                      found.record().timestamp_ms);
      if (!inserted) it->second = std::max(it->second, found.record().timestamp_ms);
    }
  }
  SearchResult result;
  result.stages = pending->stages;
  result.skills.reserve(pending->merged.size());
  for (const auto& [identity, merged] : pending->merged) {
    const Found& found = merged.found;
    const SkillRecord& record = found.record();
    if (record.tombstone || !(merged.matched || Matches(pending->query, record))) continue;
    if (mixed) {
      const auto signed_it = signed_skills.find({identity.agent_id, identity.skill_id});
      if (signed_it != signed_skills.end()) {
        if (found.source == Source::kLan) continue;
        if (Unsigned(record) && signed_it->second >= record.timestamp_ms) continue;
      }
    }
    result.skills.push_back(found);
    if (IsPrivate(record)) ++result.private_skills;
  }
  std::stable_sort(result.skills.begin(), result.skills.end(),
                   [](const Found& a, const Found& b) { return RanksBefore(*a.entry, *b.entry); });
  if (result.skills.size() > config_.results_max) result.skills.resize(config_.results_max);
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
  if (!pending->answer_key.empty()) {
    if (answers_.size() >= std::max<size_t>(1, cache_.config().size_max)) answers_.clear();
    answers_[pending->answer_key] = Answer{std::make_shared<const SearchResult>(result), Changes(),
                                           pending->answer_fresh_until};
  }
  SearchCallback done = std::move(pending->done);
  pending->done = nullptr;
  if (done) done(result);
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

uint64_t Searcher::Changes() const {
  return registry_.changes() + cache_.changes() + (lan_ != nullptr ? lan_->LanChanges() : 0);
}

std::string Searcher::CacheKey(const Key& key, const SkillQuery& query) {
  return key.ToHex() + "|" + CanonicalQueryKey(query);
}

}  // namespace skillnode::discovery
