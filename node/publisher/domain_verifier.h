// DomainVerifier: whether a domain vouches for a publisher key, by fetching the domain's
// publisher proof (publisher_proof.h) through the importers' fetcher and policy, with a cache.
//
// Check(domain, key) answers kVerified when the proof lists the key, and kUnverified with the
// reason otherwise (no such domain, no proof, a proof that does not list the key, a fetch the
// policy refused). A proof is kept for `ttl`, a failure for `failure_ttl`; checks of one domain
// while its proof is being fetched wait for that one fetch. At most `domains_max` domains are
// cached: past it, the entry that expires first makes room (and waits are never evicted).
// Cached() answers from the cache only, for listings that must not wait on the network.
//
// Loop thread only. Destroying the verifier drops waiting checks without calling them.
#ifndef SKILLNODE_NODE_PUBLISHER_DOMAIN_VERIFIER_H_
#define SKILLNODE_NODE_PUBLISHER_DOMAIN_VERIFIER_H_

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/identity.h"
#include "node/importers/fetch/import_fetcher.h"
#include "transport/clock.h"

namespace skillnode::node::publisher {

struct DomainVerifierConfig {
  transport::Duration ttl = transport::Seconds(3600);
  transport::Duration failure_ttl = transport::Seconds(300);
  size_t domains_max = 1024;
  // Where a domain's proof is fetched; "{domain}" is replaced by the domain.
  std::string url_template = "https://{domain}/.well-known/skillnode-publisher";
  importers::fetch::FetchLimits limits = {.bytes_max = 16 * 1024,
                                          .timeout = transport::Seconds(10),
                                          .redirects_max = 2,
                                          .ca_file = "",
                                          .accept = "text/plain"};
};

enum class DomainVerdict { kVerified, kUnverified };
std::string_view DomainVerdictName(DomainVerdict verdict);  // "verified", "unverified"

struct DomainCheck {
  DomainVerdict verdict = DomainVerdict::kUnverified;
  std::string reason;  // kUnverified: why
};

class DomainVerifier {
 public:
  DomainVerifier(transport::uv::UvLoop& loop, importers::fetch::ImportFetcher& fetcher,
                 DomainVerifierConfig config);
  DomainVerifier(const DomainVerifier&) = delete;
  DomainVerifier& operator=(const DomainVerifier&) = delete;

  // `done` runs once, later on the loop (or at once when the answer is cached).
  void Check(std::string_view domain, const kademlia::PublicKey& key,
             std::function<void(DomainCheck)> done);
  std::optional<DomainCheck> Cached(std::string_view domain, const kademlia::PublicKey& key) const;

  // Whether a fetch of `domain`'s proof is on its way (a listing starts no second check).
  bool Fetching(std::string_view domain) const;
  size_t cached() const { return cache_.size(); }
  uint64_t fetches() const { return fetches_; }

 private:
  struct Waiter {
    kademlia::PublicKey key{};
    std::function<void(DomainCheck)> done;
  };
  struct Entry {
    std::optional<transport::Result<std::vector<kademlia::PublicKey>>> proof;  // unset: fetching
    transport::TimePoint expires{};
    std::vector<Waiter> waiters;
  };
  static DomainCheck Verdict(const transport::Result<std::vector<kademlia::PublicKey>>& proof,
                             std::string_view domain, const kademlia::PublicKey& key);
  void Fetched(const std::string& domain,
               transport::Result<std::vector<kademlia::PublicKey>> proof);
  void MakeRoom();

  transport::uv::UvLoop& loop_;
  importers::fetch::ImportFetcher& fetcher_;
  DomainVerifierConfig config_;
  std::map<std::string, Entry, std::less<>> cache_;
  uint64_t fetches_ = 0;
};

}  // namespace skillnode::node::publisher

#endif  // SKILLNODE_NODE_PUBLISHER_DOMAIN_VERIFIER_H_
