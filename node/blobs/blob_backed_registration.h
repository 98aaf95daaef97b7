// BlobBackedRegistration: registers a skill whose record names bytes by their digest (a
// SKILL.md, a folder archive, an imported source document), so that no registered record ever
// names bytes this node lacks: the bytes go into the local store first, a registration the
// registry refuses takes back what this call wrote, and an accepted one announces them.
//
// Used by POST /api/skills/folder and by the importers. Loop thread only.
#ifndef SKILLNODE_NODE_BLOBS_BLOB_BACKED_REGISTRATION_H_
#define SKILLNODE_NODE_BLOBS_BLOB_BACKED_REGISTRATION_H_

#include <string_view>
#include <utility>
#include <vector>

#include "discovery/registry/registry.h"
#include "node/blobs/blob_network.h"
#include "transport/clock.h"
#include "transport/result.h"

namespace skillnode::node::blobs {

// One blob a record will name: its digest and its bytes (which must hash to it).
using NamedBytes = std::pair<Digest, std::string_view>;

// Stores `bytes`, then registers `fields`. An error is a store failure (kRefused when the store
// is full), with nothing registered and nothing left behind; otherwise the registry's outcome.
[[nodiscard]] transport::Result<discovery::RegisterOutcome> RegisterWithBytes(
    BlobNetwork& blobs, discovery::Registry& registry, transport::TimePoint now,
    kademlia::store::SkillRecord fields, const std::vector<NamedBytes>& bytes);

}  // namespace skillnode::node::blobs

#endif  // SKILLNODE_NODE_BLOBS_BLOB_BACKED_REGISTRATION_H_
