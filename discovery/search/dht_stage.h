// DhtStage: the DHT stage of the Searcher's chain (searcher.h), run for each search the Searcher
// hands it. It chooses how the stage runs (Mode):
//   lookup  a FIND_VALUE lookup of the query's DHT key (SkillDht::Get);
//   scan    what this node's store holds, at once: a query with no key, or one with free text
//           when no word sources are set;
//   words   a WordSearch of the free text through the keyword index, when word sources are set;
// keeps the lookups and word searches running (at most searches_in_flight_max; one more is
// refused as busy) with their deadlines (dht_timeout; OnTimer ends those past it), and makes
// each answer what it becomes: merged into the search (SearchMerge), its outcome noted
// (SearchProgress and a "dht" StageReport), its records fed to the vocabulary, and, when the
// DHT was reachable, cached: a key's answer with the key listened on (WatchedKeys) so that the
// cache learns of changes, a word answer by its text (docs/search.md "Cached word answers"). An
// empty answer is not cached when a SkillCenter stage follows: the catalog's answer is.
//
// Every search handed to Start ends its stage exactly once with a call of `done` (possibly before
// Start returns), after which the Searcher goes on with the chain (Searcher::AfterDht).
//
// Owned by Searcher; holds references to the DHT, the cache, the watched keys and the
// vocabulary, which must outlive it. Lookups and word searches that answer after it is gone do
// nothing. No clock of its own: the owner calls OnTimer(now) at NextDeadline(). Not thread-safe.
#ifndef SKILLNODE_DISCOVERY_SEARCH_DHT_STAGE_H_
#define SKILLNODE_DISCOVERY_SEARCH_DHT_STAGE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "discovery/query_cache.h"
#include "discovery/search/watched_keys.h"
#include "discovery/search/words/vocabulary_feed.h"
#include "discovery/search/words/word_search.h"
#include "discovery/search/words/word_sources.h"
#include "kademlia/key.h"
#include "kademlia/store/skill_dht.h"
#include "transport/clock.h"

namespace skillnode::discovery::search {

struct PendingSearch;  // discovery/search/pending_search.h

struct DhtStageConfig {
  // How long a lookup or word search may run; past it the chain goes on to the stale cache
  // (DISC_001). A FIND_VALUE lookup on a healthy network takes a few round trips.
  static constexpr transport::Duration kTimeoutDefault = transport::Millis(3000);
  // Lookups and word searches running at once; one more is refused (busy) and the search is
  // answered from the local and cache stages.
  static constexpr size_t kInFlightMaxDefault = 256;

  transport::Duration dht_timeout = kTimeoutDefault;
  size_t searches_in_flight_max = kInFlightMaxDefault;
  WordSearchConfig word_search;
};

class DhtStage {
 public:
  // How a search's stage runs (see above).
  enum class Mode { kLookup, kScan, kWords };
  // Called once per search handed to Start, when its stage is over, however it ended.
  using Done = std::function<void(const std::shared_ptr<PendingSearch>&, transport::TimePoint)>;

  DhtStage(kademlia::store::SkillDht& dht, QueryCache& cache, WatchedKeys& watched,
           VocabularyFeed& vocabulary, const DhtStageConfig& config, Done done);
  DhtStage(const DhtStage&) = delete;
  DhtStage& operator=(const DhtStage&) = delete;
  ~DhtStage();

  // Where a query's free text is read (not owned; they must outlive the stage or be unset
  // first). Either null: a query with text scans the store. Word searches running when the
  // sources change end at their timeout.
  void SetWordSources(TermSource* terms, RecordSource* records);
  // Whether a SkillCenter stage follows this one (for the searches whose options use it).
  void SetSkillCenterFollows(bool follows) { skillcenter_follows_ = follows; }

  // The cache keys of scanned answers begin with this (Searcher::Search): they are dropped
  // together when the store changes (DropStaleScans).
  static constexpr std::string_view kScanKeyPrefix = "scan|";
  // The cache key of `query`'s answer, `key` being its DHT key, if any: the key in hex first,
  // so that news under it drops the answers it fed (QueryCache::InvalidatePrefix); for a
  // query that scans the store (no key, and no text or no word sources), kScanKeyPrefix;
  // then CanonicalQueryKey.
  std::string CacheKeyOf(const SkillQuery& query, const std::optional<kademlia::Key>& key) const;
  // Drops the cached scan answers when the store has changed since they were made, so that a
  // cached scan is as current as a new one. Called before each search reads the cache.
  void DropStaleScans();

  // How the stage of `pending` would run, `key` being its query's DHT key, if any.
  Mode ModeOf(const PendingSearch& pending, const std::optional<kademlia::Key>& key) const;
  // Runs the DHT stage of `pending`, whose stage has not started; `key` as for ModeOf.
  void Start(transport::TimePoint now, const std::shared_ptr<PendingSearch>& pending,
             const std::optional<kademlia::Key>& key);

  // Ends, as timed out, the stages whose deadline is `now` or earlier.
  void OnTimer(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;
  // Lookups and word searches running.
  size_t in_flight() const { return in_flight_.size(); }

  struct Stats {
    uint64_t gets = 0;           // lookups started
    uint64_t word_searches = 0;  // word searches started
    uint64_t timeouts = 0;       // of them, ended by dht_timeout
    uint64_t failures = 0;       // of them, ended with no node reachable
    uint64_t busy = 0;           // stages refused: searches_in_flight_max, or the node refused
  };
  const Stats& stats() const { return stats_; }
  const DhtStageConfig& config() const { return config_; }

 private:
  using Pending = std::shared_ptr<PendingSearch>;

  void StartLookup(transport::TimePoint now, const Pending& pending, const kademlia::Key& key);
  void FinishLookup(const Pending& pending, const kademlia::store::GetResult& result);
  void Scan(transport::TimePoint now, const Pending& pending);
  void StartWords(transport::TimePoint now, const Pending& pending);
  void FinishWords(const Pending& pending, transport::TimePoint now, WordAnswer answer);
  // The stage could not start: too many running, or the node refused the lookup.
  void Refuse(transport::TimePoint now, const Pending& pending);
  void TimeOut(const Pending& pending, transport::TimePoint now);
  // Takes a running stage off the in-flight list.
  void Leave(const Pending& pending);
  // An empty answer of `pending` is cached unless a SkillCenter stage follows for it.
  bool SkillCenterFollows(const PendingSearch& pending) const;

  kademlia::store::SkillDht& dht_;
  QueryCache& cache_;
  WatchedKeys& watched_;
  VocabularyFeed& vocabulary_;
  DhtStageConfig config_;
  Done done_;
  bool skillcenter_follows_ = false;
  // ValueStore::changes() when the cached scan answers were made.
  uint64_t scan_store_changes_ = 0;
  std::unique_ptr<WordSearch> word_search_;  // set with both word sources
  Stats stats_;
  // Lookups and word searches running, each until its answer or its dht_deadline.
  std::vector<Pending> in_flight_;
  // Lookups and word searches that answer after the stage is gone find this expired.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_DHT_STAGE_H_
