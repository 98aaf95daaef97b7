// PlannedSkill: what one entry of an imported source becomes on this node: the registration's
// fields (origin included), the bytes its record names (the original document, a SKILL.md, an
// archive), and how the source calls the entry, for the import's report. The per-format planners
// (a2a_plan.h, mcp_plan.h, skills_plan.h) make them; ImportService registers them. A planner
// returns a plan only when CheckRegistrable accepts its fields, so every plan registers.
//
// The helpers below turn a source's free text into what a record takes; none of them throws:
//
// ImportId turns a name from a source into an id this registry takes for agentId, skillId or a
// capability: lowercase letters, digits, '.', '-' and '_' (anything else becomes '-', runs of
// '-' collapse, '-' and '.' are trimmed at both ends), at most `length_max` bytes; empty when
// nothing usable is left.
//
// FitText makes a record's short text (a descriptor name, a tag): ';', ',', '|' and control
// characters (which the seed's text messages cannot carry) become spaces, runs of spaces
// collapse, spaces are trimmed, and the text is cut at a UTF-8 character boundary to at most
// `bytes_max` bytes. Empty when nothing is left.
//
// ImportVersion maps a source's version to the semantic version a registration needs
// (POST /api/skills refuses any other, and the served formats order versions by semver): what
// discovery::SemVer::Parse accepts, in its canonical form ("v1.2.3" is "1.2.3"), and "1" or
// "1.2" (optionally with a leading 'v') completed with ".0"; anything else, or a version longer
// than kVersionLengthMax, is an error naming the version.
//
// CheckRegistrable: what Registry::Register and POST /api/skills check of a registration's
// fields: kademlia::store::ValidateRecord (every limit, ids and short texts without ';', ',',
// '|' or control characters, the origin) on the fields as the registry completes them (healthy,
// not a tombstone, a valid TTL), a semantic version, and an access the registry knows.
#ifndef SKILLNODE_NODE_IMPORTERS_PLANS_PLANNED_SKILL_H_
#define SKILLNODE_NODE_IMPORTERS_PLANS_PLANNED_SKILL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/identity.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/result.h"

namespace skillnode::node::importers::plans {

struct PlannedSkill {
  std::string entry;                    // "skills[2] (plan-route)": where the source has it
  kademlia::store::SkillRecord fields;  // as Registry::Register takes them, origin set
  // The bytes the record names by digest, each with its digest. Bytes several plans name (an
  // A2A card's, named by each of its skills) are one string shared by all of them.
  std::vector<std::pair<std::array<uint8_t, 32>, std::shared_ptr<const std::string>>> bytes;
  // The Ed25519 key whose signature over the source document verified (an A2A card's EdDSA
  // signature), which may prove the source's domain (importers/source_domain_prover.h).
  std::optional<kademlia::PublicKey> document_signer;
};

std::string ImportId(std::string_view text, size_t length_max);

// A description cut to the record's limit (kDescriptionLengthMax characters, counted as the
// record counts them, and kDescriptionBytesMax bytes) at a character boundary, with "..." when
// cut.
std::string FitDescription(std::string_view text);

std::string FitText(std::string_view text, size_t bytes_max);

[[nodiscard]] transport::Result<std::string> ImportVersion(std::string_view text);

[[nodiscard]] transport::Result<void> CheckRegistrable(const kademlia::store::SkillRecord& fields);

}  // namespace skillnode::node::importers::plans

#endif  // SKILLNODE_NODE_IMPORTERS_PLANS_PLANNED_SKILL_H_
