// The skills an A2A Agent Card becomes (docs/formats.md "Importing"): one registration per card
// skill, under one agent.
//
//   agentId    ImportId(card name) + "@" + the card URL's host as an id
//              ("route-planner@agent.example.org"); the host takes at most half of kIdLengthMax
//              and the name the rest, so the agentId always fits; the name's id alone when the
//              provenance has no host (a card read from a file)
//   skillId    ImportId(skill id)
//   version    the card's version as ImportVersion maps it ("2" is "2.0.0")
//   skillType  "a2a-agent"
//   endpoint   the card's preferred interface URL, else the card URL
//   capabilities  the skill's tags as ids (distinct, at most kCapabilitiesMax), else its skillId
//   descriptor name (FitText; the skillId when nothing is left), description (FitDescription),
//              tags (FitText, distinct, at most kTagsMax), examples as text examples (distinct,
//              at most kExamplesMax, each cut to kExampleLengthMax bytes with "..."; the last
//              ones are dropped while the record would encode past kRecordEncodedSizeMax)
//   origin     a2a, the card URL, the SHA-256 and size of the card's exact bytes (kept as a blob,
//              so a reader fetches and checks the very card), whether its signature verified,
//              and the publisher domain that vouched for this node, if any
//   bytes      the card's bytes: one string, shared by the plans of all the card's skills
//
// A card whose name has no letter or digit to make an agentId of, or whose version is not one
// ImportVersion maps, is refused as a whole: the answer is then that one error, naming the card
// (its skills are not looked at). Otherwise the answer has one result per card skill, in card
// order: a skill that cannot be mapped (an id with nothing usable, a skillId another skill of the
// card has already, fields CheckRegistrable refuses) is that skill's error, naming it
// ("skills[2] (plan-route): ..."); the rest are planned. Never throws.
#ifndef SKILLNODE_NODE_IMPORTERS_PLANS_A2A_PLAN_H_
#define SKILLNODE_NODE_IMPORTERS_PLANS_A2A_PLAN_H_

#include <string>
#include <string_view>
#include <vector>

#include "node/importers/documents/a2a_card_document.h"
#include "node/importers/plans/planned_skill.h"
#include "transport/result.h"

namespace skillnode::node::importers::plans {

struct A2aProvenance {
  std::string card_url;  // where the card was read (after redirects)
  std::string host;      // that URL's host
  kademlia::store::OriginSignature signature = kademlia::store::OriginSignature::kUnsigned;
  // The publisher domain is not the plan's: the import proves it (source_domain_prover.h) and
  // writes it into the origin after planning.
};

std::vector<transport::Result<PlannedSkill>> PlanA2aCard(const documents::A2aCardDocument& card,
                                                         std::string_view card_bytes,
                                                         const A2aProvenance& provenance);

}  // namespace skillnode::node::importers::plans

#endif  // SKILLNODE_NODE_IMPORTERS_PLANS_A2A_PLAN_H_
