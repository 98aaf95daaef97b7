// SourceDomainProver: whether an import proved its source's domain (docs/formats.md "Publisher
// domains"), so that the imported record's origin names the domain as verified or unverified.
//
// The source's domain is the host of the URL the document was read at, when that host is a DNS
// name (kademlia::store::IsDomainName): a file, an address literal or "localhost" has none. The
// domain is proved when the publisher proof it serves lists the Ed25519 key that signed the
// document (an A2A card whose EdDSA signature verified) or this node's own publisher key (the
// domain's owner runs the import); else it is unverified, with the reason. The proof is read
// through the CheckFn it is given (on a node, PublisherDomains::Check: one verifier and cache).
//
// Loop thread only. Holds no network state of its own.
#ifndef SKILLNODE_NODE_IMPORTERS_SOURCE_DOMAIN_PROVER_H_
#define SKILLNODE_NODE_IMPORTERS_SOURCE_DOMAIN_PROVER_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "kademlia/identity.h"
#include "kademlia/store/record/record_origin.h"
#include "node/formats/a2a/a2a_card_verifier.h"
#include "node/jose/jwk_set.h"
#include "node/publisher/domain_verifier.h"

namespace skillnode::node::importers {

struct SourceDomain {
  std::string domain;  // empty: the source has none (state kNone)
  kademlia::store::OriginDomainState state = kademlia::store::OriginDomainState::kNone;
  std::string reason;  // kUnverified: why
};

class SourceDomainProver {
 public:
  using CheckFn = std::function<void(std::string_view domain, const kademlia::PublicKey& key,
                                     std::function<void(publisher::DomainCheck)> done)>;

  SourceDomainProver(CheckFn check, const kademlia::PublicKey& own_key);

  // Proves the domain of `source_url` for `signer` (the document's verified Ed25519 signer, if
  // any) or this node's key. `done` runs once: at once when there is no domain, else when the
  // check answers.
  void Prove(std::string_view source_url, const std::optional<kademlia::PublicKey>& signer,
             std::function<void(SourceDomain)> done) const;

  // The domain of `source_url` a proof can be fetched for; empty when it has none.
  static std::string DomainOf(std::string_view source_url);
  // The raw Ed25519 key of the JWK that made `signature` (an EdDSA one, its kid naming exactly
  // one OKP Ed25519 key of `keys`, or the set holding only that key); nullopt otherwise.
  static std::optional<kademlia::PublicKey> Ed25519SignerOf(
      const jose::JwkSet& keys, const formats::a2a::VerifiedCardSignature& signature);
  // Writes `proved` into `origin`.
  static void Apply(const SourceDomain& proved, kademlia::store::RecordOrigin& origin);

 private:
  CheckFn check_;
  kademlia::PublicKey own_key_;
};

}  // namespace skillnode::node::importers

#endif  // SKILLNODE_NODE_IMPORTERS_SOURCE_DOMAIN_PROVER_H_
