// GET /.well-known/skillnode-publisher: this node's own publisher proof (publisher_proof.h),
// the Ed25519 key that signs its records, as text/plain (docs/api.md, docs/formats.md
// "Publisher domains"). A node that runs at its domain over HTTPS so proves that domain itself;
// an operator who serves the domain elsewhere copies this text there. Public, like the JWKS:
// a strong ETag (SHA-256 of the body), Cache-Control max-age provider.cardMaxAge, and 304 for a
// request whose If-None-Match names the ETag.
#ifndef SKILLNODE_NODE_PUBLISHER_PUBLISHER_PROOF_ROUTE_H_
#define SKILLNODE_NODE_PUBLISHER_PUBLISHER_PROOF_ROUTE_H_

#include "node/daemon.h"

namespace skillnode::node::publisher {

// Adds the route to `daemon`'s router; `daemon` must outlive it.
void AddPublisherProofRoute(Daemon& daemon);

}  // namespace skillnode::node::publisher

#endif  // SKILLNODE_NODE_PUBLISHER_PUBLISHER_PROOF_ROUTE_H_
