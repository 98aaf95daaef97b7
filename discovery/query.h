// SkillQuery: the filters of a skill search (spec section 7.2) and the order results are
// returned in.
//
// Matches() applies the filters to one record; Rank() sorts results best first;
// CanonicalQueryKey() names a query for the cache (section 11) so that queries that differ only
// in list order, duplicates or keyword case share one entry. Pure functions over
// kademlia::SkillRecord; no I/O.
#ifndef SKILLNODE_DISCOVERY_QUERY_H_
#define SKILLNODE_DISCOVERY_QUERY_H_

#include <optional>
#include <string>
#include <vector>

#include "discovery/semver.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery {

struct SkillQuery {
  std::vector<std::string> capabilities;  // the record has ALL of them
  std::vector<std::string> scenes;        // the record has ALL of them
  std::vector<std::string> types;         // the record's skill_type is ANY of them
  // The descriptor's capabilityType is ANY of them (skill-sharing §5.4, §5.6).
  std::vector<std::string> capability_types;
  // Each keyword, case-insensitively, is a substring of the skill id, the descriptor's name,
  // description or a tag, or a capability.
  std::vector<std::string> keywords;
  // Free text, the `q` of the search routes (docs/search.md "Word search"): the skill's name,
  // description, capabilities, tags and scenes are searched for its words across the whole
  // network through the keyword index, and the results ranked by BM25 with health. Empty: none.
  std::string text;
  std::optional<SemverRange> version;  // the record's version satisfies it
  std::optional<std::string> agent_id;
  std::optional<std::string> skill_id;
  std::optional<kademlia::store::SkillStatus> status;
  // The record is listed in this agent-ecosystem format (kademlia::store::FormatsOf).
  std::optional<kademlia::store::RecordFormat> format;
};

// Access levels (skill-sharing §5.5): a descriptor's `access`, empty meaning public.
enum class Access { kPublic, kRestricted, kPrivate };
// The record's access level; a value other than restricted or private is public (the registry
// refuses any other value, so only records from elsewhere can carry one).
Access AccessOf(const kademlia::store::SkillRecord& record);
std::string_view AccessName(Access access);  // "public", "restricted", "private"
inline bool IsPrivate(const kademlia::store::SkillRecord& record) {
  return AccessOf(record) == Access::kPrivate;
}
// The record's descriptor capabilityType, else its skillType (the index's capability_type).
std::string CapabilityTypeOf(const kademlia::store::SkillRecord& record);

// The id of a skill in a Skill Index (skill-sharing §5.7, the recommended form):
// "{agentId}.{skillId}-v{major}", the major version being the version's leading digits ("0"
// when it has none).
std::string IndexId(const kademlia::store::SkillRecord& record);
// The skill ids an index id may have been made from: every suffix after a '.' of the part
// before the final "-v{digits}", longest first, at most `candidates_max` of them. Empty when
// `id` is not of the form.
std::vector<std::string> IndexIdSkillCandidates(std::string_view id, size_t candidates_max);

// A comma-separated list (a query parameter's "a,b"): {"a", "b"}, empty parts dropped.
std::vector<std::string> SplitCommas(std::string_view text);

// True when the record passes every filter the query sets (an empty list or an unset optional
// filters nothing). A record whose version does not parse fails a version filter. Tombstones
// never match. The text matches when every term of it, analysed, is among the record's terms,
// the last also as a prefix (discovery/text/text_match.h); a text with no terms filters
// nothing. Analysing the text costs: this analyses it on every call, so a caller matching many
// records builds one text::TextMatch and calls MatchesExceptText.
bool Matches(const SkillQuery& query, const kademlia::store::SkillRecord& record);
// Matches() without the text: every other filter, and no tombstone.
bool MatchesExceptText(const SkillQuery& query, const kademlia::store::SkillRecord& record);

// Best first: HEALTHY, DEGRADED, MAINTENANCE, UNHEALTHY; within a status the highest version
// (unparsable versions last); then skill_id and agent_id ascending, then the version text, so
// the order never depends on the input order of distinct records.
void Rank(std::vector<kademlia::store::SkillRecord>& records);
// Rank()'s order: true when `a` goes before `b`; `va` and `vb` are their versions parsed
// (nullopt when not semver), so that callers holding parsed versions parse nothing again.
bool RankedBefore(const kademlia::store::SkillRecord& a, const std::optional<SemVer>& va,
                  const kademlia::store::SkillRecord& b, const std::optional<SemVer>& vb);

// A deterministic text naming the query: lists sorted and deduplicated, keywords lowercased,
// the version range in its desugared form, and every value escaped so that no two different
// queries share a key.
std::string CanonicalQueryKey(const SkillQuery& query);

}  // namespace skillnode::discovery

#endif  // SKILLNODE_DISCOVERY_QUERY_H_
