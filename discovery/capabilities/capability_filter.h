// The filters of GET /api/v1/discovery/capabilities (discovery-api-capabilities §3.2, §3.3):
// wildcard patterns, health states, and the request every parameter is read into.
//
// A pattern is `*`, empty (both match everything), `abc` (exact), `abc*` (prefix), `*abc`
// (suffix) or `*abc*` (contains); matching is ASCII case-insensitive, so a pattern is
// lowercased once when parsed and compared with ids lowercased once when the snapshot is
// built. ParseCapabilityParams reads the query's (decoded) name/value pairs into a
// CapabilityRequest, or answers the parameter at fault with what it allows. Pure; no I/O.
#ifndef SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_FILTER_H_
#define SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::capabilities {

// Limits on what one request may ask for (bad input never grows without bound).
constexpr size_t kPatternLengthMax = 128;  // an id is at most kademlia::kIdLengthMax
constexpr size_t kTagPatternsMax = 16;     // tags=a,b,...: a record holds at most 8 tags
constexpr size_t kAgentIdsMax = 100;       // agent_ids=a,b,...
constexpr size_t kLimitDefault = 100;      // agents per page (§3.2)
constexpr size_t kLimitMax = 500;
constexpr size_t kOffsetMax = 1'000'000;  // far past any snapshot (kSnapshotItemsMax)
constexpr size_t kParamsMax = 32;         // name=value pairs in one query string

class Pattern {
 public:
  enum class Kind { kAll, kExact, kPrefix, kSuffix, kContains };
  Pattern() = default;
  // nullopt for a '*' anywhere but at the ends.
  static std::optional<Pattern> Parse(std::string_view text);
  // `value_lower` must already be lowercase (ASCII).
  bool Matches(std::string_view value_lower) const;
  Kind kind() const { return kind_; }
  const std::string& text() const { return text_; }

 private:
  Kind kind_ = Kind::kAll;
  std::string text_;  // lowercased, without the '*'s
};

// The §3.2 health states; an agent's is the best of its registrations'.
enum class Health : uint8_t { kInactive = 0, kDegraded = 1, kActive = 2 };  // worse < better
std::string_view HealthName(Health health);  // "active", "degraded", "inactive"
// HEALTHY: active; DEGRADED: degraded; UNHEALTHY and MAINTENANCE: inactive.
Health HealthOf(kademlia::store::SkillStatus status);

enum class Format { kJson, kXml, kCompact };
std::string_view FormatName(Format format);

// Include flags (§3.2), as a bit mask so that fragments can say which flag they need.
enum Include : uint8_t {
  kIncludeDescription = 1,
  kIncludeInputSchema = 2,
  kIncludeOutputSchema = 4,
  kIncludeExamples = 8,
};

struct CapabilityRequest {
  // agent/node_id and agent_ids/node_ids together: sorted, without duplicates; empty with
  // `agents_set` false means every agent.
  std::vector<std::string> agent_ids;
  bool agents_set = false;
  std::optional<Pattern> reasoner;  // filters the reasoners only
  std::optional<Pattern> skill;     // filters the skills only
  std::vector<Pattern> tags;        // an item matches when any tag matches any pattern
  std::optional<Health> health;     // the agent's health_status
  std::string capability;           // capability= and scene=: through the DHT stage
  std::string scene;
  Format format = Format::kJson;
  uint8_t include = kIncludeDescription;
  size_t limit = kLimitDefault;
  size_t offset = 0;

  bool FiltersItems() const { return reasoner || skill || !tags.empty(); }
  bool UsesNetwork() const { return !capability.empty() || !scene.empty(); }
};

// A 400's details (§3.7): which parameter, what was sent, what is allowed.
struct ParamError {
  std::string parameter;
  std::string provided;
  std::vector<std::string> allowed;
  std::string message;
};

// Every parameter this endpoint knows (the `allowed` of an unknown parameter's error).
const std::vector<std::string>& KnownParams();

// Reads decoded (name, value) pairs. A repeated parameter: its first value counts (as
// HttpRequest::Query), except the agent parameters, whose values are all taken. Booleans
// take true/1/yes and false/0/no in any case; compact's include_descriptions defaults to
// false (the document's §3.6 shows none), every other format's to true.
[[nodiscard]] tl::expected<CapabilityRequest, ParamError> ParseCapabilityParams(
    const std::vector<std::pair<std::string, std::string>>& params);

}  // namespace skillnode::discovery::capabilities

#endif  // SKILLNODE_DISCOVERY_CAPABILITIES_CAPABILITY_FILTER_H_
