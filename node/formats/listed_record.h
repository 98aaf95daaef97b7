// ListedRecord: one skill record as the agent-ecosystem listings show it (docs/formats.md),
// with where this node got it and what a reader needs to check it: the canonical bytes its
// publisher signed and the Ed25519 signature.
//
// The MCP Registry API, the Agent Skills index and the AI Catalog are each made by one mapping
// function from a ListedRecord (mcp_server_json.h, agent_skills_index.h, ai_catalog.h); the
// provenance object below is the same in all of them. Plain data and pure functions; no I/O.
#ifndef SKILLNODE_NODE_FORMATS_LISTED_RECORD_H_
#define SKILLNODE_NODE_FORMATS_LISTED_RECORD_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "kademlia/identity.h"
#include "kademlia/store/record/skill_record.h"

namespace skillnode::node::formats {

// This project's reverse-DNS name (docs/formats.md "Keys and identifiers"): the project owns no
// domain; skillnode.invalid is the one its packaging names (debian/control), and .invalid is
// reserved (RFC 2606), so the name can never be anyone else's.
inline constexpr std::string_view kReverseDns = "invalid.skillnode";
// The MCP Registry `_meta` key of the provenance object (reverse-DNS "/" name, as the
// registry's own "io.modelcontextprotocol.registry/official").
inline constexpr std::string_view kProvenanceMetaKey = "invalid.skillnode/provenance";
// The AI Catalog extension key of the same object (the catalog wants a reverse-DNS string).
inline constexpr std::string_view kProvenanceExtensionKey = "invalid.skillnode.provenance";

// Where this node got a record: its own registrations, or the DHT.
enum class RecordSource { kLocal, kDht };
std::string_view RecordSourceName(RecordSource source);  // "local", "dht"

struct ListedRecord {
  kademlia::store::SkillRecord record;
  RecordSource source = RecordSource::kDht;
  // The canonical encoding the signature covers (kademlia::store::EncodeRecord), and the
  // signature; both empty for a private registration, which is never signed or published.
  std::vector<uint8_t> encoded = {};
  std::optional<kademlia::Signature> signature = std::nullopt;
  // The publisher domains the record claims with their states as this node checked them
  // ([{domain, state, reason}], publisher/domain_claims.h); null when it claims none.
  nlohmann::json domain_claims = nullptr;
};

// The provenance a reader can check (docs/formats.md): {publisherKey (hex), publisherNodeId
// (hex), signatureAlgorithm "Ed25519", signature (hex), signedRecord (base64 of the canonical
// encoding), source, sequence, agentId, skillId}, and publisherDomains (the domain claims)
// when the record claims any; the signature fields are left out for an unsigned record.
nlohmann::json ProvenanceJson(const ListedRecord& listed);

// Whether `listed` may be shown to a request: private records only to an authenticated one.
bool VisibleTo(const ListedRecord& listed, bool authenticated);

}  // namespace skillnode::node::formats

#endif  // SKILLNODE_NODE_FORMATS_LISTED_RECORD_H_
