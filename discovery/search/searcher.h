// Searcher: answers a discovery query through the fallback chain of spec §12.2.
//
// The chain is a list of stages, tried in order, each with its own timeout:
//   local  the skills registered with this node (always, at once);
//   lan    the skills heard on the LAN (the LAN table, at once); when the table has none, a
//          SKILL_DISCOVER round that runs beside the DHT stage for the LAN's discover window;
//   cache  a fresh cached answer to the same query (read-through; spec §11), when allowed;
//   dht    a FIND_VALUE lookup of the query's most selective DHT key (capability, then scene,
//          then skill id; docs/architecture.md "DHT keys"), verified and merged; a query with
//          no such key scans what this node's store holds. A query with free text (q) runs a
//          WordSearch through the keyword index instead, when word sources are set, else scans
//          the store too (docs/search.md "The query");
//   skillcenter  the configured SkillCenter catalog (spec §7, §12.2), when the stages before
//          found nothing: its answer is cached for the stage's TTL; a catalog that fails is
//          skipped with back-off by the stage itself (a circuit breaker);
//   stale  the cache again, when the DHT or SkillCenter stage failed (timeout, no reachable
//          node, catalog down).
// Results merge to the newest version per (publisher, agentId, skillId), keep only what matches
// every filter, and are ranked HEALTHY first, then highest version (with free text: every word
// held first, then BM25F times health, TextRanking; the text is analysed once per search,
// TextQuery); a LAN result is dropped when
// a signed record of the same (agentId, skillId) was found, and a SkillCenter result (unsigned)
// when a signed one of the same (agentId, skillId) is as new or newer. Each result says which
// stage found it. Failure answers carry the seed's codes: DISC_001 timeout, DISC_002 nothing
// found, DISC_005 network error (no node reachable, catalog down).
//
// A search answered wholly by the local, LAN and cache stages is kept beside the cache, and the
// same query asked again is answered with it while nothing those stages hold has changed — the
// registry, the LAN table and its own cache entry; answers cached for other queries do not
// count — and its cache entry needs no refresh: the same answer, without merging and ranking
// again. The corrections and completions of its text are those the vocabulary gave when it was
// made, as for the cached answer it was made with.
//
// The cache is kept honest by DHT listen: once an answer for a key is cached, the searcher
// listens on that key, and any record added, changed or removed under it drops the cached
// answers holding that skill. The same subscriptions feed watchers (Server-Sent Events).
//
// Searcher runs the chain; its helpers each own one job: SearchProgress (a search's stage
// states), SearchMerge (merging and ranking what the stages found), DhtStage (the DHT stage: a
// key lookup, a store scan or a word search, the lookups in flight and their timeouts, and what
// each answer becomes), SkillCenterReading (what a catalog's answer comes to), AnswerMemo (the
// reused answers) and WatchedKeys (the DHT subscriptions and watchers), TextQuery (a search's
// free text), WordSearch (the keyword index, run by DhtStage) and VocabularyFeed (the terms this
// node has seen, for completion and typos).
//
// No I/O of its own: the owner calls OnTimer(now) at NextDeadline(). Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_H_
#define SKILLNODE_DISCOVERY_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "discovery/query.h"
#include "discovery/query_cache.h"
#include "discovery/registry/registry.h"
#include "discovery/search/answer_memo.h"
#include "discovery/search/dht_stage.h"
#include "discovery/search/search_types.h"
#include "discovery/search/watched_keys.h"
#include "discovery/search/words/text_ranking.h"
#include "discovery/search/words/vocabulary_feed.h"
#include "discovery/search/words/word_search.h"
#include "discovery/search/words/word_sources.h"
#include "discovery/skill_entry.h"
#include "discovery/skill_json.h"
#include "kademlia/store/skill_dht.h"

namespace skillnode::discovery::search {

struct PendingSearch;  // discovery/search/pending_search.h

struct SearchConfig {
  // The DHT stage's own timeout; past it the chain goes on to the stale cache.
  transport::Duration dht_timeout = DhtStageConfig::kTimeoutDefault;
  // Searches waiting for the DHT at once; one more is answered at once from local and cache.
  size_t searches_in_flight_max = DhtStageConfig::kInFlightMaxDefault;
  // DHT keys the searcher listens on (for the cache and for watchers) at once; an answer
  // whose key cannot be listened on is not cached. As many as cache.maxSize's default, so
  // that a full cache of distinct keys stays honest.
  size_t watched_keys_max = 1024;
  // Watchers (SSE streams) in all.
  size_t watchers_max = 256;
  // Skills one answer holds at most.
  size_t results_max = 1000;
  // The word search of a query's free text: its limits and its ranking (field weights, health).
  WordSearchConfig word_search;
  // The terms and words this node has seen, for completion and typos: their bounds.
  VocabularyLimits vocabulary;
};

// What the SkillCenter stage found.
struct SkillCenterAnswer {
  enum class Outcome { kFound, kNone, kTimeout, kFailed, kSkipped };
  Outcome outcome = Outcome::kNone;
  std::vector<kademlia::store::SkillRecord> records;  // unsigned: publisher all zeros
  std::string message;                                // why, for kTimeout, kFailed and kSkipped
};

// The SkillCenter stage (discovery/skillcenter, node/skillcenter): a remote catalog.
class SkillCenterStage {
 public:
  virtual ~SkillCenterStage() = default;
  // Asks the catalog; `done` is called exactly once: at once when the stage skips the call
  // (its circuit is open), else when the answer, an error or the stage's timeout comes.
  virtual void SearchCatalog(transport::TimePoint now, const SkillQuery& query,
                             std::function<void(transport::TimePoint, SkillCenterAnswer)> done) = 0;
  // How long its answers are cached; nullopt: not cached.
  virtual std::optional<transport::Duration> CacheTtl() const = 0;
};

// The LAN stage (discovery/lan): what this node has heard on the LAN, and a SKILL_DISCOVER
// round for when that is nothing.
class LanStage {
 public:
  virtual ~LanStage() = default;
  // Skills from the LAN table matching `query`, at once.
  virtual std::vector<kademlia::store::SkillRecord> FindOnLan(const SkillQuery& query) const = 0;
  // Grows with every change of what FindOnLan could answer.
  virtual uint64_t LanChanges() const = 0;
  // Sends SKILL_DISCOVER and calls `done` once with what answered within the stage's window
  // (or at once with nothing, returning false, when no round can start).
  virtual bool DiscoverOnLan(
      transport::TimePoint now, const SkillQuery& query,
      std::function<void(transport::TimePoint, std::vector<kademlia::store::SkillRecord>)>
          done) = 0;
};

class Searcher {
 public:
  Searcher(kademlia::store::SkillDht& dht, const Registry& registry, const SearchConfig& config,
           const CacheConfig& cache_config);
  Searcher(const Searcher&) = delete;
  Searcher& operator=(const Searcher&) = delete;
  ~Searcher();

  // Adds the LAN stage after the local one (not owned; null: none). It must outlive the
  // searcher or be unset first.
  void SetLanStage(LanStage* lan) { lan_ = lan; }
  // The LAN stage, or null (GET /api/v1/discovery/capabilities lists its table).
  const LanStage* lan_stage() const { return lan_; }
  // Adds the SkillCenter stage after the DHT one (not owned; null: none); likewise.
  void SetSkillCenterStage(SkillCenterStage* center) {
    skill_center_ = center;
    dht_stage_.SetSkillCenterFollows(center != nullptr);
  }
  // Where the DHT stage reads a query's free text: the keyword index and the records its
  // pointers lead to (not owned; they must outlive the searcher or be unset first). Either
  // null: a query with text scans this node's store instead. Searches whose word search is
  // running when the sources change end at their DHT stage's timeout.
  void SetWordSources(TermSource* terms, RecordSource* records) {
    dht_stage_.SetWordSources(terms, records);
  }
  // The terms this node has seen (words typed are completed and corrected from it).
  const VocabularyFeed& vocabulary() const { return vocabulary_; }

  // Runs the chain; `done` is called exactly once, possibly before Search returns.
  void Search(transport::TimePoint now, const SkillQuery& query, const SearchOptions& options,
              SearchCallback done);

  // Calls `on_change` for every change under `key` (the current records first, as kAdded).
  // Returns a watch id, or 0 when watchers_max or watched_keys_max are reached.
  uint64_t Watch(transport::TimePoint now, const kademlia::Key& key, WatchCallback on_change) {
    return watched_.Watch(now, key, std::move(on_change));
  }
  void Unwatch(uint64_t watch) { watched_.Unwatch(watch); }
  size_t watchers() const { return watched_.watchers(); }
  size_t watched_keys() const { return watched_.watched_keys(); }

  // Drops every cached answer (POST /api/cache/refresh).
  void ClearCache() { cache_.Clear(); }
  // A registration here changed (registered, updated, unregistered...): drops the cached
  // answers that `record` could be part of — those looked up under its keys, and the word
  // answers holding its skill — and notes its words in the vocabulary.
  void InvalidateRecord(const kademlia::store::SkillRecord& record);
  const QueryCache& cache() const { return cache_; }

  void OnTimer(transport::TimePoint now) { dht_stage_.OnTimer(now); }
  transport::TimePoint NextDeadline() const { return dht_stage_.NextDeadline(); }

  struct Stats {
    uint64_t searches = 0;
    uint64_t dht_gets = 0;      // DhtStage's gets
    uint64_t dht_timeouts = 0;  // DhtStage's timeouts
    uint64_t dht_failures = 0;  // DhtStage's failures
    uint64_t stale_answers = 0;
    uint64_t not_found = 0;
    uint64_t busy = 0;  // DhtStage's busy
    uint64_t invalidations = 0;
    uint64_t lan_rounds = 0;         // SKILL_DISCOVER rounds the LAN stage started
    uint64_t skillcenter_calls = 0;  // searches that went on to the SkillCenter stage
    uint64_t answers_reused = 0;     // searches answered by a complete earlier answer
    uint64_t word_searches = 0;      // DHT stages run as a WordSearch (DhtStage's)
  };
  // The searcher's counts with its DHT stage's.
  Stats stats() const;

  // The DHT key a query is looked up under, if any.
  static std::optional<kademlia::Key> QueryKey(const SkillQuery& query);

 private:
  using Pending = PendingSearch;  // one search's state

  void StartLan(transport::TimePoint now, const std::shared_ptr<Pending>& pending);
  // After the DHT stage: the SkillCenter stage when nothing was found, then the stale cache
  // when a remote stage failed, then the answer.
  void AfterDht(const std::shared_ptr<Pending>& pending, transport::TimePoint now);
  void FinishSkillCenter(const std::shared_ptr<Pending>& pending, transport::TimePoint now,
                         SkillCenterAnswer answer);
  void Finish(const std::shared_ptr<Pending>& pending, transport::TimePoint now);
  // What an answer from the local, LAN and cache stages under `cache_key` is made from: the
  // registry's and the LAN table's changes, and the version of that key's cache entry (a new
  // answer cached under another key leaves it as it was).
  AnswerMemo::Basis BasisOf(std::string_view cache_key) const;

  const Registry& registry_;
  LanStage* lan_ = nullptr;
  SkillCenterStage* skill_center_ = nullptr;
  SearchConfig config_;
  VocabularyFeed vocabulary_;
  TextRanking text_ranking_;
  Stats stats_;  // the DHT stage's counts are its own (DhtStage::Stats)
  QueryCache cache_;
  // Answers of the cache stage, at most cache.maxSize of them (then all are dropped at once).
  AnswerMemo answers_;
  // Keys listened on for the cache and for watchers; counts into stats_.invalidations.
  WatchedKeys watched_;
  // The DHT stage, with the searches waiting for it; after what it holds references to.
  DhtStage dht_stage_;
  // Lookups that finish after the searcher is gone find this expired and do nothing.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_H_
