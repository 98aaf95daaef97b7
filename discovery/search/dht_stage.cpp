// DhtStage: the DHT stage's three modes, its in-flight list and what each answer becomes
// (dht_stage.h).
#include "discovery/search/dht_stage.h"

#include <algorithm>
#include <cassert>
#include <unordered_set>
#include <utility>

#include "discovery/search/pending_search.h"

namespace skillnode::discovery::search {

using kademlia::Key;
using kademlia::store::SkillRecord;
using Dht = SearchProgress::Dht;

DhtStage::DhtStage(kademlia::store::SkillDht& dht, QueryCache& cache, WatchedKeys& watched,
                   VocabularyFeed& vocabulary, const DhtStageConfig& config, Done done)
    : dht_(dht),
      cache_(cache),
      watched_(watched),
      vocabulary_(vocabulary),
      config_(config),
      done_(std::move(done)) {
  assert(done_);
}

DhtStage::~DhtStage() = default;

void DhtStage::SetWordSources(TermSource* terms, RecordSource* records) {
  word_search_.reset();
  if (terms != nullptr && records != nullptr) {
    word_search_ = std::make_unique<WordSearch>(*terms, *records, vocabulary_, config_.word_search);
  }
}

DhtStage::Mode DhtStage::ModeOf(const PendingSearch& pending, const std::optional<Key>& key) const {
  if (pending.text && word_search_) return Mode::kWords;
  // A key lookup cannot match free text: without word sources the store is what can.
  if (!key || pending.text) return Mode::kScan;
  return Mode::kLookup;
}

void DhtStage::Start(transport::TimePoint now, const Pending& pending,
                     const std::optional<Key>& key) {
  assert(pending->progress.dht() == Dht::kNotStarted);
  switch (ModeOf(*pending, key)) {
    case Mode::kWords:
      StartWords(now, pending);
      return;
    case Mode::kScan:
      Scan(now, pending);
      return;
    case Mode::kLookup:
      StartLookup(now, pending, *key);
      return;
  }
}

void DhtStage::StartLookup(transport::TimePoint now, const Pending& pending, const Key& key) {
  pending->dht_key = key;
  bool started = false;
  if (in_flight_.size() < config_.searches_in_flight_max) {
    std::weak_ptr<int> alive = alive_;
    // Running before the get: a lone node's get calls back before it returns.
    pending->progress.DhtStarted();
    started = dht_.Get(now, key, kademlia::store::GetOptions{},
                       [this, alive, pending](const kademlia::store::GetResult& result) {
                         if (alive.expired() || !pending->progress.dht_running()) return;
                         FinishLookup(pending, result);
                       });
  }
  if (!started) {
    Refuse(now, pending);
    return;
  }
  ++stats_.gets;
  if (pending->progress.dht_running()) {
    pending->dht_deadline = now + config_.dht_timeout;
    in_flight_.push_back(pending);
    assert(in_flight_.size() <= config_.searches_in_flight_max);
  }
}

void DhtStage::FinishLookup(const Pending& pending, const kademlia::store::GetResult& result) {
  const transport::TimePoint now = result.finished;
  Leave(pending);
  // Messages sent and not one answer: no node could be reached (a lone node sends none).
  const bool unreachable = result.stats.messages > 0 && result.stats.replies == 0;
  pending->progress.DhtFinished(unreachable ? Dht::kUnreachable : Dht::kAnswered);
  if (unreachable) ++stats_.failures;
  // A reachable DHT's answer is cached, and the key watched so that the cache learns of
  // changes. A new subscription starts from this read, and subscribes on the holders it
  // found, so a removal that follows is reported; an older subscription already knows what is
  // newer, a tombstone that came while this read ran, and that replaces what the read saw, or
  // a record published while it ran, which joins it (or the cached answer would lack it until
  // the next change under the key).
  const uint64_t subscription =
      unreachable ? 0 : watched_.ListenForCache(now, pending->dht_key, result);
  const std::vector<kademlia::store::SignedRecordPtr> current =
      subscription != 0 ? dht_.Observe(subscription, result.records) : result.records;
  std::vector<SkillEntryPtr> live;
  for (const auto& signed_record : current) {
    const SkillRecord& record = signed_record->record;
    const Found& held = pending->merge.Add(record, Source::kDht);
    // News to this search: not a tombstone, once per version. A version the merge held already
    // from this node's registrations or cache was noted when it came there.
    if (held.source == Source::kDht) vocabulary_.NoteRecord(record);
    if (!record.tombstone && Matches(pending->query, record)) {
      // The entry the merge holds is shared when it is this very version.
      live.push_back(held.record().sequence == record.sequence ? held.entry
                                                               : SkillEntry::Make(record));
    }
  }
  pending->Report("dht",
                  unreachable    ? "failed"
                  : live.empty() ? "none"
                                 : "found",
                  live.size(), now);
  if (subscription != 0) {
    watched_.NoteCachedAnswers(pending->dht_key, live);
    // With a SkillCenter stage an empty DHT answer is not cached: the catalog's answer is
    // (and stays when a background refresh finds nothing in the DHT), and when the catalog
    // fails the next search must ask again rather than hit a cached "nothing".
    if (!live.empty() || !SkillCenterFollows(*pending)) {
      cache_.Put(now, pending->cache_key, std::move(live));
    }
  }
  done_(pending, now);
}

void DhtStage::Scan(transport::TimePoint now, const Pending& pending) {
  const size_t before = pending->merge.size();
  const kademlia::store::ValueStore& store = dht_.store();
  // A record is held under several keys, and shared by them: each is looked at once.
  std::unordered_set<const kademlia::store::SignedRecord*> seen;
  std::vector<SkillEntryPtr> live;  // what matched
  for (const Key& key : store.Keys()) {
    for (const kademlia::store::StoredRecord* held : store.Get(key)) {
      if (!seen.insert(held->value.get()).second) continue;
      const SkillRecord& record = held->value->record;
      if (record.tombstone) {
        pending->merge.Add(record, Source::kDht);
      } else if (MatchesExceptText(pending->query, record) &&
                 (!pending->text || pending->text->MatchesText(record))) {
        // Without terms, text filters nothing. The entry the merge holds is shared when it is
        // this very version.
        const Found& found = pending->merge.Add(record, Source::kDht, true);
        live.push_back(found.record().sequence == record.sequence ? found.entry
                                                                  : SkillEntry::Make(record));
      }
    }
  }
  // Cached under its scan key until the store changes (DropStaleScans; docs/search.md
  // "Cached scans"): without it a list with no key walked every record held for every request.
  // A query whose text filters nothing scans with its words' key (none): not cached.
  if (pending->cache_key.starts_with(kScanKeyPrefix) &&
      (!live.empty() || !SkillCenterFollows(*pending))) {
    DropStaleScans();  // older ones, when the search did not (the tests' own stage)
    cache_.Put(now, pending->cache_key, std::move(live));
  }
  pending->Report("dht", "found", pending->merge.size() - before, now);
  pending->progress.StoreScanned();
  done_(pending, now);
}

std::string DhtStage::CacheKeyOf(const SkillQuery& query, const std::optional<Key>& key) const {
  if (key) return key->ToHex() + "|" + CanonicalQueryKey(query);
  if (query.text.empty() || word_search_ == nullptr) {
    return std::string(kScanKeyPrefix) + CanonicalQueryKey(query);
  }
  return CanonicalQueryKey(query);
}

void DhtStage::DropStaleScans() {
  const uint64_t changes = dht_.store().changes();
  if (changes == scan_store_changes_) return;
  cache_.InvalidatePrefix(kScanKeyPrefix);
  scan_store_changes_ = changes;
}

void DhtStage::StartWords(transport::TimePoint now, const Pending& pending) {
  assert(pending->text != nullptr && word_search_ != nullptr);
  if (in_flight_.size() >= config_.searches_in_flight_max) {
    Refuse(now, pending);
    return;
  }
  ++stats_.word_searches;
  pending->progress.DhtStarted();
  pending->dht_deadline = now + config_.dht_timeout;
  in_flight_.push_back(pending);  // before the search: it may answer before it returns
  std::weak_ptr<int> alive = alive_;
  word_search_->Search(now, pending->query,
                       [this, alive, pending](transport::TimePoint at, WordAnswer answer) {
                         if (alive.expired() || !pending->progress.dht_running()) return;
                         FinishWords(pending, at, std::move(answer));
                       });
}

void DhtStage::FinishWords(const Pending& pending, transport::TimePoint now, WordAnswer answer) {
  Leave(pending);
  pending->progress.DhtFinished(answer.failed ? Dht::kUnreachable : Dht::kAnswered);
  if (answer.failed) ++stats_.failures;
  // The corrections the index had count in the ranking of every stage's skills.
  pending->text->TakeTerms(answer.terms);
  std::vector<SkillEntryPtr> hits;
  for (const ScoredEntry& hit : answer.hits) {
    pending->merge.Add(hit.entry, Source::kDht, true);
    hits.push_back(hit.entry);
  }
  // Cached as a key answer is, but with no key to listen on: InvalidateRecord drops it when a
  // skill it holds changes here, its TTL bounds the rest (docs/search.md "Cached word answers").
  if (!answer.failed && (!hits.empty() || !SkillCenterFollows(*pending))) {
    cache_.Put(now, pending->cache_key, std::move(hits));
  }
  pending->Report("dht",
                  answer.failed         ? "failed"
                  : answer.hits.empty() ? "none"
                                        : "found",
                  answer.hits.size(), now);
  done_(pending, now);
}

void DhtStage::Refuse(transport::TimePoint now, const Pending& pending) {
  ++stats_.busy;
  pending->progress.DhtBusy();
  pending->Report("dht", "skipped", 0, now);
  done_(pending, now);
}

void DhtStage::TimeOut(const Pending& pending, transport::TimePoint now) {
  Leave(pending);
  pending->progress.DhtFinished(Dht::kTimedOut);
  ++stats_.timeouts;
  pending->Report("dht", "timeout", 0, now);
  done_(pending, now);
}

void DhtStage::Leave(const Pending& pending) {
  assert(pending->progress.dht_running());
  std::erase(in_flight_, pending);
}

bool DhtStage::SkillCenterFollows(const PendingSearch& pending) const {
  return skillcenter_follows_ && pending.options.use_skillcenter;
}

void DhtStage::OnTimer(transport::TimePoint now) {
  std::vector<Pending> due;
  for (const Pending& pending : in_flight_) {
    if (pending->dht_deadline <= now) due.push_back(pending);
  }
  for (const Pending& pending : due) {
    // A stage that ended from an earlier one's callbacks has left in_flight_ already.
    if (pending->progress.dht_running()) TimeOut(pending, now);
  }
}

transport::TimePoint DhtStage::NextDeadline() const {
  transport::TimePoint next = transport::kTimeNever;
  for (const Pending& pending : in_flight_) next = std::min(next, pending->dht_deadline);
  return next;
}

}  // namespace skillnode::discovery::search
