// SkillCenterReading: the SkillCenter stage's answer read for one search.
#include "discovery/search/skillcenter_reading.h"

namespace skillnode::discovery::search {

SkillCenterReading SkillCenterReading::Of(const SkillQuery& query, const SkillCenterAnswer& answer,
                                          bool cache_answers) {
  using Center = SearchProgress::Center;
  using Outcome = SkillCenterAnswer::Outcome;
  SkillCenterReading reading;
  switch (answer.outcome) {
    case Outcome::kFound:
    case Outcome::kNone: {
      for (const kademlia::store::SkillRecord& record : answer.records) {
        if (!record.tombstone && Matches(query, record)) ++reading.live;
      }
      reading.state = Center::kAnswered;
      reading.outcome = reading.live > 0 ? "found" : "none";
      if (cache_answers && reading.live > 0) {
        for (const kademlia::store::SkillRecord& record : answer.records) {
          if (!record.tombstone && Matches(query, record)) {
            reading.to_cache.push_back(SkillEntry::Make(record));
          }
        }
      }
      break;
    }
    case Outcome::kTimeout:
      reading.state = Center::kTimedOut;
      reading.outcome = "timeout";
      reading.code = DiscCode(DiscError::kTimeout);
      reading.message = answer.message;
      break;
    case Outcome::kFailed:
    case Outcome::kSkipped:
      reading.state = Center::kFailed;
      reading.outcome = answer.outcome == Outcome::kFailed ? "failed" : "skipped";
      reading.code = DiscCode(DiscError::kNetwork);
      reading.message = answer.message;
      break;
  }
  return reading;
}

}  // namespace skillnode::discovery::search
