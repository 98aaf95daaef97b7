// A node's identity certificate: an X.509 certificate for the node's own Ed25519 identity key
// (the key its node id hashes), issued by the network's CA, which a network can require of
// every publisher of DHT records (docs/security.md "Certified publishers").
//
//   skillnode csr        IdentityCsr: a PKCS#10 request signed by the identity key, CN = the
//                        node id, for the CA to sign (openssl x509 -req ...);
//   security.identityCertificate
//                        ReadIdentityCertificate: the issued certificate, checked to hold this
//                        node's key; its DER travels in every record the node publishes;
//   security.requireCertifiedPublishers
//                        PublisherPolicy: records whose certificate does not chain to a trusted
//                        root, or does not hold the record's publisher key, are refused.
#ifndef SKILLNODE_DISCOVERY_LAN_IDENTITY_CERT_H_
#define SKILLNODE_DISCOVERY_LAN_IDENTITY_CERT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "discovery/lan/lan_security.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/result.h"

namespace skillnode::discovery::lan {

// A PEM certificate request for the Ed25519 key of `seed`, with subject CN = `common_name`.
[[nodiscard]] transport::Result<std::string> IdentityCsr(const std::array<uint8_t, 32>& seed,
                                                         const std::string& common_name);

// The first certificate of a PEM file, as DER, after checking that its key is the Ed25519
// `public_key` and that it fits a record (kademlia::kPublisherCertificateMax).
[[nodiscard]] transport::Result<std::vector<uint8_t>> ReadIdentityCertificate(
    const std::string& path, const std::array<uint8_t, 32>& public_key);

// Takes a record only when it carries a certificate that chains to `roots` at the wall time
// and holds the record's publisher key. What it decided is remembered per publisher (at most
// `remembered_max`, and never past the certificate's expiry), so a publisher's chain is checked
// once, not once per record.
class PublisherPolicy {
 public:
  PublisherPolicy(std::shared_ptr<TrustStore> roots, std::function<uint64_t()> wall_ms,
                  size_t remembered_max = 4096);
  [[nodiscard]] transport::Result<void> Check(const kademlia::store::SignedRecord& record);
  uint64_t refused() const { return refused_; }

 private:
  struct Known {
    std::vector<uint8_t> certificate;
    uint64_t not_after_ms = 0;
  };
  std::shared_ptr<TrustStore> roots_;
  std::function<uint64_t()> wall_ms_;
  size_t remembered_max_;
  std::map<kademlia::PublicKey, Known> known_;
  uint64_t refused_ = 0;
};

}  // namespace skillnode::discovery::lan

#endif  // SKILLNODE_DISCOVERY_LAN_IDENTITY_CERT_H_
