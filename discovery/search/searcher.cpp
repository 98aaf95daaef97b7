// Searcher: runs the discovery chain (searcher.h) over its helpers: each search's state
// (PendingSearch: its stages' states, findings and text), the DHT stage (DhtStage), the
// SkillCenter answer's reading (SkillCenterReading), the reused answers (AnswerMemo) and the DHT
// subscriptions (WatchedKeys).
#include "discovery/search/searcher.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "discovery/search/pending_search.h"
#include "discovery/search/skillcenter_reading.h"

namespace skillnode::discovery::search {

using kademlia::Key;
using kademlia::store::SkillRecord;
using Center = SearchProgress::Center;

Searcher::Searcher(kademlia::store::SkillDht& dht, const Registry& registry,
                   const SearchConfig& config, const CacheConfig& cache_config)
    : registry_(registry),
      config_(config),
      vocabulary_(config.vocabulary),
      text_ranking_(config.word_search.ranking),
      cache_(cache_config),
      answers_(std::max<size_t>(1, cache_config.size_max)),
      watched_(dht, cache_, config.watched_keys_max, config.watchers_max, stats_.invalidations),
      dht_stage_(dht, cache_, watched_, vocabulary_,
                 DhtStageConfig{.dht_timeout = config.dht_timeout,
                                .searches_in_flight_max = config.searches_in_flight_max,
                                .word_search = config.word_search},
                 [this](const std::shared_ptr<Pending>& pending, transport::TimePoint now) {
                   AfterDht(pending, now);
                 }) {}

Searcher::~Searcher() = default;

Searcher::Stats Searcher::stats() const {
  Stats stats = stats_;
  const DhtStage::Stats& dht = dht_stage_.stats();
  stats.dht_gets = dht.gets;
  stats.dht_timeouts = dht.timeouts;
  stats.dht_failures = dht.failures;
  stats.busy = dht.busy;
  stats.word_searches = dht.word_searches;
  return stats;
}

std::optional<Key> Searcher::QueryKey(const SkillQuery& query) {
  if (query.skill_id && !query.capabilities.empty()) {
    return kademlia::store::SkillCapabilityKey(*query.skill_id, query.capabilities.front());
  }
  if (!query.capabilities.empty())
    return kademlia::store::CapabilityKey(query.capabilities.front());
  if (!query.scenes.empty()) return kademlia::store::SceneKey(query.scenes.front());
  if (query.skill_id) return kademlia::store::SkillKey(*query.skill_id);
  if (query.agent_id) return kademlia::store::AgentKey(*query.agent_id);
  // Types are ANY-of: one key covers the query only when it names one type.
  if (query.capability_types.size() == 1) {
    return kademlia::store::CapabilityTypeKey(query.capability_types.front());
  }
  if (query.format) return kademlia::store::FormatKey(*query.format);
  return std::nullopt;
}

void Searcher::Search(transport::TimePoint now, const SkillQuery& query,
                      const SearchOptions& options, SearchCallback done) {
  ++stats_.searches;
  auto pending = std::make_shared<Pending>();
  pending->query = query;
  pending->options = options;
  pending->done = std::move(done);
  pending->started = now;
  const std::optional<Key> key = QueryKey(query);
  dht_stage_.DropStaleScans();
  pending->cache_key = dht_stage_.CacheKeyOf(query, key);
  std::string answer_key;
  if (options.use_cache && cache_.config().enabled) {
    answer_key = AnswerMemo::KeyOf(pending->cache_key, options);
    // Held here: the callback may search again and drop the answer.
    if (const auto answer = answers_.Find(answer_key, BasisOf(pending->cache_key), now)) {
      ++stats_.answers_reused;
      cache_.CountHit();
      pending->done(*answer);
      return;
    }
  }

  pending->text = TextQuery::For(query);
  TextQuery* text = pending->text.get();
  if (text != nullptr) {
    vocabulary_.NoteRegistry(registry_);
    text->Correct(vocabulary_, config_.word_search);
  }
  // The local and LAN stages filter by everything but the text, which TextQuery matches.
  const SkillQuery& asked = text != nullptr ? text->without_text() : query;
  // With text, the registrations holding its rarest term (Registry's word postings).
  const size_t local = TextQuery::AddFound(
      text,
      text != nullptr ? registry_.FindEntries(asked, text->terms(), text->language())
                      : registry_.FindEntries(asked),
      Source::kLocal, pending->merge);
  pending->Report("local", local > 0 ? "found" : "none", local, now);
  const bool use_lan = lan_ != nullptr && options.use_lan;
  size_t lan_found = 0;
  if (use_lan) {
    lan_found = TextQuery::AddFound(text, lan_->FindOnLan(asked), Source::kLan, pending->merge);
    pending->Report("lan", lan_found > 0 ? "found" : "none", lan_found, now);
  }

  if (options.use_cache) {
    if (auto hit = cache_.Get(now, pending->cache_key)) {
      for (const SkillEntryPtr& entry : hit->entry->records) {
        pending->merge.Add(entry, Source::kCache, true);
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
  dht_stage_.Start(now, pending, key);  // comes back at AfterDht
}

void Searcher::InvalidateRecord(const SkillRecord& record) {
  watched_.InvalidateRecord(record);
  // Word answers are cached by their text, not under a DHT key: those holding the skill go.
  const size_t cached = cache_.size();
  cache_.InvalidateSkill(record.skill_id);
  if (cache_.size() != cached) ++stats_.invalidations;
  vocabulary_.NoteRecord(record);
}

void Searcher::StartLan(transport::TimePoint now, const std::shared_ptr<Pending>& pending) {
  std::weak_ptr<int> alive = alive_;
  pending->progress.LanRoundStarted();
  // A LAN round matches everything but the text: this search's TextQuery matches that.
  const bool started = lan_->DiscoverOnLan(
      now, pending->text ? pending->text->without_text() : pending->query,
      [this, alive, pending](transport::TimePoint at, std::vector<SkillRecord> records) {
        if (alive.expired() || !pending->progress.lan_waiting()) return;
        pending->progress.LanRoundHeard();
        const size_t heard =
            TextQuery::AddFound(pending->text.get(), records, Source::kLan, pending->merge);
        pending->Report("lan-discover", heard == 0 ? "none" : "found", heard, at);
        if (pending->progress.dht_done() && pending->MayFinish()) Finish(pending, at);
      });
  if (started) {
    ++stats_.lan_rounds;
  } else if (pending->progress.lan_waiting()) {
    pending->progress.LanRoundSkipped();
    pending->Report("lan-discover", "skipped", 0, now);
  }
}

void Searcher::AfterDht(const std::shared_ptr<Pending>& pending, transport::TimePoint now) {
  SearchProgress& progress = pending->progress;
  if (progress.replied()) return;
  if (skill_center_ != nullptr && pending->options.use_skillcenter &&
      progress.center() == Center::kNotAsked && !pending->merge.HasAnswer(pending->query)) {
    progress.CenterAsked();
    ++stats_.skillcenter_calls;
    std::weak_ptr<int> alive = alive_;
    skill_center_->SearchCatalog(
        now, pending->query,
        [this, alive, pending](transport::TimePoint at, SkillCenterAnswer answer) {
          if (alive.expired() || !pending->progress.center_waiting()) {
            return;
          }
          FinishSkillCenter(pending, at, std::move(answer));
        });
    return;  // FinishSkillCenter comes back here
  }
  if (progress.center_waiting()) return;
  if (progress.RemoteFailed() && progress.stale() == SearchProgress::Stale::kNotRead) {
    progress.StaleReadDone();
    if (auto hit = cache_.Get(now, pending->cache_key)) {
      ++stats_.stale_answers;
      for (const SkillEntryPtr& entry : hit->entry->records) {
        pending->merge.Add(entry, Source::kCache, true);
      }
      pending->Report("stale", "found", hit->entry->records.size(), now);
    } else {
      pending->Report("stale", "none", 0, now);
    }
  }
  if (pending->MayFinish()) Finish(pending, now);
}

void Searcher::FinishSkillCenter(const std::shared_ptr<Pending>& pending, transport::TimePoint now,
                                 SkillCenterAnswer answer) {
  for (const SkillRecord& record : answer.records) {
    pending->merge.Add(record, Source::kSkillCenter);
  }
  const std::optional<transport::Duration> ttl = skill_center_->CacheTtl();
  SkillCenterReading reading = SkillCenterReading::Of(pending->query, answer, ttl.has_value());
  pending->progress.CenterFinished(reading.state, reading.message);
  pending->Report("skillcenter", std::move(reading.outcome), reading.live, now,
                  std::move(reading.code), std::move(reading.message));
  if (!reading.to_cache.empty()) {
    cache_.Put(now, pending->cache_key, std::move(reading.to_cache), *ttl);
  }
  AfterDht(pending, now);
}

void Searcher::Finish(const std::shared_ptr<Pending>& pending, transport::TimePoint now) {
  (void)now;
  if (pending->progress.replied()) return;
  pending->progress.Replied();
  SearchMerge::Order order;
  if (pending->text) {
    order = [this, &pending](std::vector<Found>& found) {
      pending->text->Order(found, text_ranking_);
    };
  }
  SearchMerge::Ranked ranked = pending->merge.Rank(pending->query, config_.results_max, order);
  SearchResult result;
  result.stages = pending->stages;
  result.skills = std::move(ranked.skills);
  result.private_skills = ranked.private_skills;
  if (result.skills.empty()) {
    ++stats_.not_found;
    SearchProgress::Failure failure = pending->progress.FailureOf(config_.dht_timeout);
    result.error = failure.error;
    result.message = std::move(failure.message);
  }
  if (!pending->answer_key.empty()) {
    // The cache entry read by this search is still there: Finish follows the read at once.
    answers_.Keep(pending->answer_key, result, BasisOf(pending->cache_key),
                  pending->answer_fresh_until);
  }
  SearchCallback done = std::move(pending->done);
  pending->done = nullptr;
  if (done) done(result);
}

AnswerMemo::Basis Searcher::BasisOf(std::string_view cache_key) const {
  // Both counts only grow: their sum changes whenever either does.
  return AnswerMemo::Basis{
      .sources = registry_.changes() + (lan_ != nullptr ? lan_->LanChanges() : 0),
      .entry = cache_.VersionOf(cache_key)};
}

}  // namespace skillnode::discovery::search
