// CardKeys: an imported A2A card's signatures (docs/formats.md "Importing", "A2A signatures").
// A card with `signatures[]` whose first signature's protected header names a key set (`jku`)
// is imported only once a signature verifies with that set: CardKeysUrl says where the set is
// (resolved against the card's URL; the importer fetches it under its policy), and PlanSignedCard
// plans the card from the set's bytes, each plan carrying the Ed25519 key that signed the card
// (for the source domain's proof, source_domain_prover.h). A card without signatures, or signed
// without a `jku`, gives no key to check and is planned as unsigned (PlanUnsignedCard).
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_IMPORTERS_CARD_KEYS_H_
#define SKILLNODE_NODE_IMPORTERS_CARD_KEYS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "node/importers/documents/a2a_card_document.h"
#include "node/importers/plans/planned_skill.h"
#include "transport/result.h"

namespace skillnode::node::importers {

using CardPlans = std::vector<transport::Result<plans::PlannedSkill>>;

// The URL of the key set that can verify `card`, read at `card_url`; nullopt when the card is to
// be planned as unsigned. An error when its `jku` does not resolve.
[[nodiscard]] transport::Result<std::optional<std::string>> CardKeysUrl(
    const documents::A2aCardDocument& card, const std::string& card_url);

// The card's plans, origin signature "verified", once a signature verifies with the key set
// `keys_bytes` read at `keys_url`; kCrypto (naming the card and the set) when none does.
[[nodiscard]] transport::Result<CardPlans> PlanSignedCard(const documents::A2aCardDocument& card,
                                                          const std::string& card_bytes,
                                                          const std::string& card_url,
                                                          std::string_view keys_bytes,
                                                          const std::string& keys_url);

// The card's plans, origin signature "unsigned".
CardPlans PlanUnsignedCard(const documents::A2aCardDocument& card, const std::string& card_bytes,
                           const std::string& card_url);

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_CARD_KEYS_H_
