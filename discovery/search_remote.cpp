// Searcher: what follows the DHT stage: the SkillCenter stage, the stale cache, the answer.
#include "discovery/search.h"
#include "discovery/search_internal.h"

namespace skillnode::discovery {

void Searcher::AfterDht(const std::shared_ptr<Pending>& pending, TimePoint now) {
  if (pending->answered) return;
  if (skill_center_ != nullptr && pending->options.use_skillcenter && !pending->center_started &&
      !pending->HasAnswer()) {
    pending->center_started = true;
    pending->center_waiting = true;
    ++stats_.skillcenter_calls;
    std::weak_ptr<int> alive = alive_;
    skill_center_->SearchCatalog(now, pending->query,
                                 [this, alive, pending](TimePoint at, SkillCenterAnswer answer) {
                                   if (alive.expired() || !pending->center_waiting) return;
                                   FinishSkillCenter(pending, at, std::move(answer));
                                 });
    return;  // FinishSkillCenter comes back here
  }
  if (pending->center_waiting) return;
  const bool remote_failed = pending->dht_timed_out || pending->dht_unreachable ||
                             pending->dht_busy || pending->center_timed_out ||
                             pending->center_failed;
  if (remote_failed && !pending->stale_done) {
    pending->stale_done = true;
    if (auto hit = cache_.Get(now, pending->cache_key)) {
      ++stats_.stale_answers;
      for (const SkillEntryPtr& entry : hit->entry->records) {
        pending->Add(entry, Source::kCache, true);
      }
      pending->Report("stale", "found", hit->entry->records.size(), now);
    } else {
      pending->Report("stale", "none", 0, now);
    }
  }
  if (pending->MayFinish()) Finish(pending, now);
}

void Searcher::FinishSkillCenter(const std::shared_ptr<Pending>& pending, TimePoint now,
                                 SkillCenterAnswer answer) {
  pending->center_waiting = false;
  using Outcome = SkillCenterAnswer::Outcome;
  size_t live = 0;
  for (const SkillRecord& record : answer.records) {
    pending->Add(record, Source::kSkillCenter);
    if (!record.tombstone && Matches(pending->query, record)) ++live;
  }
  switch (answer.outcome) {
    case Outcome::kFound:
    case Outcome::kNone: {
      pending->Report("skillcenter", live > 0 ? "found" : "none", live, now);
      if (const std::optional<Duration> ttl = skill_center_->CacheTtl(); ttl && live > 0) {
        std::vector<SkillEntryPtr> cached;
        for (const SkillRecord& record : answer.records) {
          if (!record.tombstone && Matches(pending->query, record)) {
            cached.push_back(SkillEntry::Make(record));
          }
        }
        cache_.Put(now, pending->cache_key, std::move(cached), *ttl);
      }
      break;
    }
    case Outcome::kTimeout:
      pending->center_timed_out = true;
      pending->center_message = answer.message;
      pending->Report("skillcenter", "timeout", 0, now, std::string(DiscCode(DiscError::kTimeout)),
                      answer.message);
      break;
    case Outcome::kFailed:
    case Outcome::kSkipped:
      pending->center_failed = true;
      pending->center_message = answer.message;
      pending->Report("skillcenter", answer.outcome == Outcome::kFailed ? "failed" : "skipped", 0,
                      now, std::string(DiscCode(DiscError::kNetwork)), answer.message);
      break;
  }
  AfterDht(pending, now);
}

}  // namespace skillnode::discovery
