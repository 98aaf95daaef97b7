#include "node/importers/source_domain_prover.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "node/jose/jwk.h"

namespace skillnode::node::importers {
namespace {

using kademlia::store::OriginDomainState;
using publisher::DomainCheck;
using publisher::DomainVerdict;

kademlia::PublicKey Key(uint8_t fill) {
  kademlia::PublicKey key{};
  key.fill(fill);
  return key;
}

// Domains and the keys their proofs list; the checks asked for, in order.
struct Proofs {
  std::map<std::string, std::vector<kademlia::PublicKey>> lists;
  std::vector<std::pair<std::string, kademlia::PublicKey>> asked;

  SourceDomainProver::CheckFn Fn() {
    return [this](std::string_view domain, const kademlia::PublicKey& key,
                  std::function<void(DomainCheck)> done) {
      asked.emplace_back(std::string(domain), key);
      const auto it = lists.find(std::string(domain));
      if (it == lists.end()) return done({DomainVerdict::kUnverified, "no proof (404)"});
      const bool listed = std::find(it->second.begin(), it->second.end(), key) != it->second.end();
      done(listed ? DomainCheck{DomainVerdict::kVerified, ""}
                  : DomainCheck{DomainVerdict::kUnverified, "does not list this key"});
    };
  }
};

SourceDomain Proved(const SourceDomainProver& prover, std::string_view url,
                    std::optional<kademlia::PublicKey> signer = std::nullopt) {
  std::optional<SourceDomain> out;
  prover.Prove(url, signer, [&out](SourceDomain proved) { out = std::move(proved); });
  REQUIRE(out);
  return *out;
}

TEST_CASE("a source's domain is proved by a proof listing the importer's own key", "[unit]") {
  Proofs proofs;
  proofs.lists["shop.example"] = {Key(9), Key(1)};
  const SourceDomainProver prover(proofs.Fn(), Key(1));
  const SourceDomain proved =
      Proved(prover, "https://Shop.Example:8443/.well-known/agent-card.json");
  CHECK(proved.domain == "shop.example");
  CHECK(proved.state == OriginDomainState::kVerified);
  CHECK(proofs.asked.size() == 1);
}

TEST_CASE("a source's domain is proved by a proof listing the card's signer", "[unit]") {
  Proofs proofs;
  proofs.lists["cards.example"] = {Key(5)};
  const SourceDomainProver prover(proofs.Fn(), Key(1));
  CHECK(Proved(prover, "https://cards.example/card.json", Key(5)).state ==
        OriginDomainState::kVerified);
  // The node's key first, then the signer's.
  CHECK(proofs.asked == std::vector<std::pair<std::string, kademlia::PublicKey>>{
                            {"cards.example", Key(1)}, {"cards.example", Key(5)}});
}

TEST_CASE("a domain that does not list either key, or serves no proof, is unverified with why",
          "[unit]") {
  Proofs proofs;
  proofs.lists["other.example"] = {Key(7)};
  const SourceDomainProver prover(proofs.Fn(), Key(1));
  const SourceDomain listed_other = Proved(prover, "https://other.example/x", Key(5));
  CHECK(listed_other.domain == "other.example");
  CHECK(listed_other.state == OriginDomainState::kUnverified);
  CHECK_THAT(listed_other.reason, Catch::Contains("nor the key that signed the document"));
  const SourceDomain none = Proved(prover, "https://missing.example/x");
  CHECK(none.state == OriginDomainState::kUnverified);
  CHECK(none.reason == "no proof (404)");
}

TEST_CASE("a file, an address or a one-label host has no domain to prove", "[unit]") {
  Proofs proofs;
  const SourceDomainProver prover(proofs.Fn(), Key(1));
  for (const char* url : {"file:card.json", "card.json", "http://127.0.0.1:8080/card.json",
                          "http://[::1]/card.json", "http://localhost/card.json"}) {
    INFO(url);
    const SourceDomain proved = Proved(prover, url);
    CHECK(proved.domain.empty());
    CHECK(proved.state == OriginDomainState::kNone);
  }
  CHECK(proofs.asked.empty());
}

TEST_CASE("the signer of a verified EdDSA signature is its kid's Ed25519 key", "[unit]") {
  const jose::JwkSet keys({jose::Ed25519Jwk(Key(3), "k1"), jose::Ed25519Jwk(Key(4), "k2")});
  formats::a2a::VerifiedCardSignature signature;
  signature.alg = "EdDSA";
  signature.kid = "k2";
  CHECK(SourceDomainProver::Ed25519SignerOf(keys, signature) == Key(4));
  signature.kid = "";  // two keys could have made it
  CHECK_FALSE(SourceDomainProver::Ed25519SignerOf(keys, signature));
  CHECK(SourceDomainProver::Ed25519SignerOf(jose::JwkSet({jose::Ed25519Jwk(Key(3), "k1")}),
                                            signature) == Key(3));
  signature.alg = "ES256";
  signature.kid = "k1";
  CHECK_FALSE(SourceDomainProver::Ed25519SignerOf(keys, signature));
}

TEST_CASE("a proved domain is written into the origin with its state", "[unit]") {
  kademlia::store::RecordOrigin origin;
  SourceDomainProver::Apply({"shop.example", OriginDomainState::kUnverified, "why"}, origin);
  CHECK(origin.publisher_domain == "shop.example");
  CHECK(origin.publisher_domain_state == OriginDomainState::kUnverified);
}

}  // namespace
}  // namespace skillnode::node::importers
