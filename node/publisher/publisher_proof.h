// The publisher proof: a text file a domain serves at /.well-known/skillnode-publisher over
// HTTPS to say which skillnode publisher keys speak for it (docs/formats.md "Publisher
// domains"; the same idea as the MCP Registry's HTTP proof of a namespace). One key per line:
//
//   v=skillnode1; k=ed25519; p=<the 32-byte Ed25519 public key in standard base64>
//
// Blank lines and lines starting with '#' are ignored; any other line must be of that form, and
// the error names its line. A node serves its own proof at the same path, so a node that runs
// at its domain over HTTPS proves itself.
//
// Pure: no I/O.
#ifndef SKILLNODE_NODE_PUBLISHER_PUBLISHER_PROOF_H_
#define SKILLNODE_NODE_PUBLISHER_PUBLISHER_PROOF_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/identity.h"
#include "transport/result.h"

namespace skillnode::node::publisher {

inline constexpr std::string_view kPublisherProofPath = "/.well-known/skillnode-publisher";
// A longer proof is refused unread; more keys than this in one proof are refused.
constexpr size_t kPublisherProofBytesMax = 16 * 1024;
constexpr size_t kPublisherProofKeysMax = 64;

// The proof listing `keys`, one line each, after a comment line naming the format.
std::string RenderPublisherProof(const std::vector<kademlia::PublicKey>& keys);

// The keys a proof lists.
[[nodiscard]] transport::Result<std::vector<kademlia::PublicKey>> ReadPublisherProof(
    std::string_view text);

}  // namespace skillnode::node::publisher

#endif  // SKILLNODE_NODE_PUBLISHER_PUBLISHER_PROOF_H_
