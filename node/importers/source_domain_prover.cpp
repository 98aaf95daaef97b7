// SourceDomainProver (source_domain_prover.h).
#include "node/importers/source_domain_prover.h"

#include <algorithm>
#include <utility>

#include "node/importers/import_source.h"

namespace skillnode::node::importers {

using kademlia::store::OriginDomainState;
using publisher::DomainCheck;
using publisher::DomainVerdict;

SourceDomainProver::SourceDomainProver(CheckFn check, const kademlia::PublicKey& own_key)
    : check_(std::move(check)), own_key_(own_key) {}

std::string SourceDomainProver::DomainOf(std::string_view source_url) {
  if (!source_url.starts_with("https://") && !source_url.starts_with("http://")) return "";
  std::string host = HostOf(source_url);
  return kademlia::store::IsDomainName(host) ? host : "";
}

std::optional<kademlia::PublicKey> SourceDomainProver::Ed25519SignerOf(
    const jose::JwkSet& keys, const formats::a2a::VerifiedCardSignature& signature) {
  if (signature.alg != "EdDSA") return std::nullopt;
  std::optional<kademlia::PublicKey> found;
  size_t matches = 0;
  for (const jose::Jwk& key : keys.keys()) {
    if (!signature.kid.empty() && key.kid != signature.kid) continue;
    if (key.kty != jose::KeyType::kOkp || key.crv != "Ed25519") {
      if (signature.kid.empty()) ++matches;  // another key could have made it
      continue;
    }
    ++matches;
    if (key.x.size() != kademlia::PublicKey{}.size()) continue;
    kademlia::PublicKey raw{};
    std::copy(key.x.begin(), key.x.end(), raw.begin());
    found = raw;
  }
  return matches == 1 ? found : std::nullopt;
}

void SourceDomainProver::Apply(const SourceDomain& proved, kademlia::store::RecordOrigin& origin) {
  origin.publisher_domain = proved.domain;
  origin.publisher_domain_state = proved.state;
}

void SourceDomainProver::Prove(std::string_view source_url,
                               const std::optional<kademlia::PublicKey>& signer,
                               std::function<void(SourceDomain)> done) const {
  std::string domain = DomainOf(source_url);
  if (domain.empty()) return done(SourceDomain{});
  // The node's own key first; the signer's when the domain does not list it. The verifier
  // fetches the proof once for both.
  check_(domain, own_key_,
         [check = check_, domain, signer, done = std::move(done)](DomainCheck own) {
           if (own.verdict == DomainVerdict::kVerified || !signer) {
             return done(SourceDomain{domain,
                                      own.verdict == DomainVerdict::kVerified
                                          ? OriginDomainState::kVerified
                                          : OriginDomainState::kUnverified,
                                      std::move(own.reason)});
           }
           check(domain, *signer, [domain, done, own](DomainCheck theirs) {
             if (theirs.verdict == DomainVerdict::kVerified) {
               return done(SourceDomain{domain, OriginDomainState::kVerified, ""});
             }
             done(SourceDomain{domain, OriginDomainState::kUnverified,
                               own.reason + " (nor the key that signed the document)"});
           });
         });
}

}  // namespace skillnode::node::importers
