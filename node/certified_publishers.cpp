#include "node/certified_publishers.h"

#include "node/spd_logger.h"
#include "node/wall_clock.h"

namespace skillnode::node {

transport::Result<CertifiedPublishers> SetUpCertifiedPublishers(Daemon& daemon) {
  const config::SecurityConfig& security = daemon.config().security;
  CertifiedPublishers out;
  if (!security.identity_certificate.empty()) {
    auto der = discovery::lan::ReadIdentityCertificate(security.identity_certificate,
                                                       daemon.identity().public_key());
    if (!der) {
      return transport::Fail(der.error().code,
                             "security.identityCertificate: " + der.error().message);
    }
    out.own_certificate = std::move(*der);
  }
  if (!security.require_certified_publishers) return out;
  auto roots = discovery::lan::TrustStore::FromPemFiles(security.trusted_roots);
  if (!roots)
    return transport::Fail(roots.error().code, "security.trustedRoots: " + roots.error().message);
  out.policy = std::make_unique<discovery::lan::PublisherPolicy>(std::move(*roots), &WallClockMs);
  discovery::lan::PublisherPolicy* policy = out.policy.get();
  daemon.dht().SetRecordPolicy(
      [policy](const kademlia::store::SignedRecord& record) { return policy->Check(record); });
  LogAt(daemon.logger(), transport::LogLevel::kInfo,
        std::string("DHT records are taken only from certified publishers") +
            (out.own_certificate.empty()
                 ? "; this node has no identity certificate, so others will refuse its records"
                 : ""));
  return out;
}

}  // namespace skillnode::node
