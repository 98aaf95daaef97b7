// Certified publishers on a running node (docs/security.md "Certified publishers"): this node's
// identity certificate, carried in every record it publishes, and, with
// security.requireCertifiedPublishers, the DHT's record policy that takes records only from
// publishers whose certificate chains to security.trustedRoots.
#ifndef SKILLNODE_NODE_CERTIFIED_PUBLISHERS_H_
#define SKILLNODE_NODE_CERTIFIED_PUBLISHERS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "discovery/lan/identity_cert.h"
#include "node/daemon.h"

namespace skillnode::node {

struct CertifiedPublishers {
  std::vector<uint8_t> own_certificate;                     // DER; empty: this node has none
  std::unique_ptr<discovery::lan::PublisherPolicy> policy;  // null: every publisher is taken
};

// Reads security.identityCertificate (checked to hold this node's key) and installs the record
// policy on the daemon's DHT when security.requireCertifiedPublishers is set. The error names
// the key and the file. The result must outlive the daemon's loop.
[[nodiscard]] transport::Result<CertifiedPublishers> SetUpCertifiedPublishers(Daemon& daemon);

}  // namespace skillnode::node

#endif  // SKILLNODE_NODE_CERTIFIED_PUBLISHERS_H_
