// The SkillCenter catalog's JSON (skill-discovery-protocol §7): the search body a node sends
// (§7.2) and the answers it reads back, a §7.3 search answer or a §7.1 skill-details answer.
//
// A catalog is not trusted: a skill object that lacks a field, mistypes one or breaks a record
// limit (kademlia::ValidateRecord) is dropped and counted, never passed on; a private skill is
// dropped too (a catalog may show it to this node's token, but this node would show it to
// anyone). Records from a catalog carry no publisher key (they are not signed): their publisher
// is all zeros, their agentId is the catalog's (or "skillcenter"), their timestamp its
// updatedAt. Pure functions; no I/O.
#ifndef SKILLNODE_DISCOVERY_SKILLCENTER_CATALOG_JSON_H_
#define SKILLNODE_DISCOVERY_SKILLCENTER_CATALOG_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "discovery/query.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::discovery::skillcenter {

// The agentId of a catalog skill that names none.
inline constexpr std::string_view kCatalogAgentDefault = "skillcenter";

// {capabilities, scenes, types, keywords, version} for POST /api/skills/search.
nlohmann::json CatalogSearchBody(const SkillQuery& query);

struct CatalogAnswer {
  std::vector<kademlia::store::SkillRecord> records;
  size_t invalid = 0;        // skill objects dropped as malformed
  size_t private_skips = 0;  // private skills dropped
  size_t over_limit = 0;     // skills beyond records_max
};

// Reads {"skills": [...]} (§7.3) or one skill object (§7.1; a "providers" array, as skillnode
// answers, gives one record per provider). The error says what is wrong with the body itself.
[[nodiscard]] tl::expected<CatalogAnswer, std::string> ParseCatalogAnswer(std::string_view body,
                                                                          size_t records_max);

// One skill object as a record; the error names the field.
[[nodiscard]] tl::expected<kademlia::store::SkillRecord, std::string> CatalogRecord(
    const nlohmann::json& skill);

}  // namespace skillnode::discovery::skillcenter

#endif  // SKILLNODE_DISCOVERY_SKILLCENTER_CATALOG_JSON_H_
