#include "discovery/search.h"

#include <algorithm>
#include <set>
#include <utility>

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

struct Searcher::Pending {
  SkillQuery query;
  SearchOptions options;
  SearchCallback done;
  std::string cache_key;
  Key dht_key;
  TimePoint started = kTimeZero;
  TimePoint dht_deadline = kTimeNever;
  bool dht_done = false;
  bool dht_timed_out = false;
  bool dht_unreachable = false;
  bool dht_busy = false;  // the DHT stage could not start: too many lookups running
  bool answered = false;
  bool lan_waiting = false;  // a SKILL_DISCOVER round is running
  // Newest version per identity; tombstones kept so that they beat older live copies.
  std::map<RecordIdentity, Found> merged;
  std::vector<StageReport> stages;

  void Add(const SkillRecord& record, Source source) {
    auto [it, inserted] = merged.try_emplace(kademlia::IdentityOf(record), Found{record, source});
    if (inserted) return;
    if (record.sequence > it->second.record.sequence) {
      it->second = Found{record, source};
    } else if (record.sequence == it->second.record.sequence && source == Source::kLocal) {
      it->second.source = Source::kLocal;  // our own registration: say so
    }
  }
  // Whether any stage has found a skill to answer with: the LAN round is then not waited for.
  bool HasAnswer() const {
    return std::any_of(merged.begin(), merged.end(), [this](const auto& entry) {
      return !entry.second.record.tombstone && Matches(query, entry.second.record);
    });
  }
  bool MayFinish() const { return !lan_waiting || HasAnswer(); }
  void Report(std::string stage, std::string outcome, size_t records, TimePoint now) {
    stages.push_back(
        StageReport{std::move(stage), std::move(outcome), records, ToMillis(now - started)});
  }
};

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
    if (pending->MayFinish()) Finish(pending, now);
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
        if (pending->dht_done) Finish(pending, at);
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
        cache_.Put(now, pending->cache_key, std::move(live));
      }
    }
  }
  if (pending->answered) return;
  if (pending->dht_timed_out || pending->dht_unreachable || pending->dht_busy) {
    if (auto hit = cache_.Get(now, pending->cache_key)) {
      ++stats_.stale_answers;
      for (const SkillRecord& record : hit->entry->records) pending->Add(record, Source::kCache);
      pending->Report("stale", "found", hit->entry->records.size(), now);
    } else {
      pending->Report("stale", "none", 0, now);
    }
  }
  if (pending->MayFinish()) Finish(pending, now);
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
  // What a signed record (local, DHT, cache) says of a skill beats what the LAN heard of it.
  std::set<std::pair<std::string, std::string>> signed_skills;
  for (const auto& [identity, found] : pending->merged) {
    if (found.source != Source::kLan) signed_skills.emplace(identity.agent_id, identity.skill_id);
  }
  for (const auto& [identity, found] : pending->merged) {
    if (found.record.tombstone || !Matches(pending->query, found.record)) continue;
    if (found.source == Source::kLan &&
        signed_skills.contains({identity.agent_id, identity.skill_id})) {
      continue;
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
