// The search chain's value types: what a search is asked (SearchOptions), what it answers
// (SearchResult, its Found skills and StageReports) and the seed's discovery error codes
// (spec §12.1). Shared by Searcher (discovery/search/searcher.h) and its helpers; owns nothing.
#ifndef SKILLNODE_DISCOVERY_SEARCH_TYPES_H_
#define SKILLNODE_DISCOVERY_SEARCH_TYPES_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "discovery/skill_entry.h"
#include "discovery/skill_json.h"
#include "kademlia/store/skill_dht.h"

namespace skillnode::discovery::search {

// The seed's discovery error codes (spec §12.1).
enum class DiscError {
  kTimeout,
  kNoSkills,
  kRegistrationFailed,
  kVerification,
  kNetwork,
  kUnavailable
};
std::string_view DiscCode(DiscError error);  // "DISC_001" ...
int DiscHttpStatus(DiscError error);         // 504, 404, 400, 502, 503, 503

struct StageReport {
  std::string stage;    // local, lan, lan-discover, cache, dht, skillcenter, stale
  std::string outcome;  // found, none, timeout, failed, skipped
  size_t records = 0;
  double duration_ms = 0;
  std::string code;    // DISC_001 / DISC_005 for a stage that timed out or failed; else empty
  std::string detail;  // why, for such a stage
};

struct Found {
  SkillEntryPtr entry;
  Source source = Source::kLocal;
  const kademlia::store::SkillRecord& record() const { return entry->record(); }
};

struct SearchResult {
  std::vector<Found> skills;  // ranked
  size_t private_skills = 0;  // how many of them are private (access levels)
  std::vector<StageReport> stages;
  std::optional<DiscError> error;  // set when nothing could be found
  std::string message;
};
using SearchCallback = std::function<void(const SearchResult&)>;

struct SearchOptions {
  bool use_cache = true;        // false: skip the read-through cache stage (a fresh answer)
  bool use_lan = true;          // false: skip the LAN stage
  bool use_skillcenter = true;  // false: skip the SkillCenter stage
};

// A change under a watched key.
using WatchCallback = std::function<void(const kademlia::store::ListenEvent&)>;

}  // namespace skillnode::discovery::search

#endif  // SKILLNODE_DISCOVERY_SEARCH_TYPES_H_
