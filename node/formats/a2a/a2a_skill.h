// One skill record as an A2A v1.0 AgentSkill (specification/a2a.proto, message AgentSkill):
// `id` the record's Skill Index id (skill-sharing §5.7, the id /skills/{id}/descriptor.json
// resolves), `name`, `description`, `tags` (all four required and never empty) and `examples`
// when the descriptor has any. No member is ever an empty string or array (the A2A JS SDK's
// canonicalization drops those before verifying a signature). Pure.
#ifndef SKILLNODE_NODE_FORMATS_A2A_SKILL_H_
#define SKILLNODE_NODE_FORMATS_A2A_SKILL_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kademlia/store/record/skill_record.h"

namespace skillnode::node::formats::a2a {

// The AgentSkill of `record`:
//   id           IndexId(record), "{agentId}.{skillId}-v{major}"
//   name         the descriptor's name, else the skill id
//   description  the descriptor's description unless blank, else "Skill {skillId} of agent
//                {agentId}, capability type {type}." (the type left out when there is none)
//   tags         the descriptor's tags, then the record's capabilities (each once, blanks
//                left out); when that is nothing, the capability type (descriptor capabilityType,
//                else skillType)
//   examples     the descriptor's examples that are not blank; left out when none are
// inputModes and outputModes are left out: a descriptor names no media types, and every skill
// takes and gives JSON, the card's defaults (a2a_card.h).
nlohmann::json A2aSkillJson(const kademlia::store::SkillRecord& record);

// Whether every text of `record` a card shows (ids, version, type, endpoint, capabilities and
// the descriptor's texts) is UTF-8, which JSON needs. Records come from any publisher and are
// not checked for it; the routes leave one that fails out of every card rather than fail the
// card.
bool ShowableInCard(const kademlia::store::SkillRecord& record);

// The AgentSkills of `records`, in their order, one per distinct id (the first of each: callers
// pass records ranked best first, so that of two nodes' copies of one skill the best is shown).
nlohmann::json A2aSkillsJson(const std::vector<kademlia::store::SkillRecord>& records);

}  // namespace skillnode::node::formats::a2a

#endif  // SKILLNODE_NODE_FORMATS_A2A_SKILL_H_
