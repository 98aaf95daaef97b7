// PublisherDomains: the node's one DomainVerifier, and the publisher domains it shows beside
// every skill (docs/formats.md "Publisher domains").
//
// Owns the verifier and what it fetches through: an HTTP client and an ImportFetcher under the
// import section's fetch policy (import.allowHttp, import.allowedHosts: the one policy every
// fetch a node makes for someone else's document follows), fetching provider.domainProofUrl and
// keeping a proof for provider.domainProofTtl. Claims(record) answers at once from the cache
// (a listing never waits on the network) and starts a check of each claim with no answer, so a
// later read shows it. Check() waits for the answer (an import proving its source's domain).
// Adds the verifier's counters to /metrics and its state to /api/node ("publisherDomains").
//
// Loop thread only. The daemon's close hook closes the fetcher and the client; checks in flight
// end without their callbacks.
#ifndef SKILLNODE_NODE_PUBLISHER_PUBLISHER_DOMAINS_H_
#define SKILLNODE_NODE_PUBLISHER_PUBLISHER_DOMAINS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "node/daemon.h"
#include "node/importers/fetch/import_fetcher.h"
#include "node/publisher/domain_claims.h"
#include "node/publisher/domain_verifier.h"
#include "transport/uv/uv_http_client.h"

namespace skillnode::node::publisher {

// Proof fetches at once (a listing of many domains starts one check per domain).
constexpr size_t kProofFetchesInFlightMax = 16;
// Domains whose proofs are kept (the verifier's domains_max).
constexpr size_t kProofDomainsCachedMax = 1024;

class PublisherDomains {
 public:
  // `daemon` must outlive this; create it between Daemon::Create() and Run().
  explicit PublisherDomains(Daemon& daemon);
  PublisherDomains(const PublisherDomains&) = delete;
  PublisherDomains& operator=(const PublisherDomains&) = delete;
  ~PublisherDomains();

  // The record's claims as this node knows them now; starts a check of each one unanswered.
  std::vector<DomainClaim> Claims(const kademlia::store::SkillRecord& record);
  nlohmann::json ClaimsJson(const kademlia::store::SkillRecord& record) {
    return publisher::ClaimsJson(Claims(record));
  }
  // Whether `domain` vouches for `key`; `done` runs once, later on the loop (or at once when
  // the answer is cached or no fetch can be made).
  void Check(std::string_view domain, const kademlia::PublicKey& key,
             std::function<void(DomainCheck)> done);

 private:
  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  Daemon& daemon_;
  transport::uv::UvHttpClient http_;
  std::optional<importers::fetch::ImportFetcher> fetcher_;  // none: a bad allowedHosts entry
  std::optional<DomainVerifier> verifier_;
  std::string policy_error_;
  struct Counts {
    uint64_t checks_started = 0;
    uint64_t verified = 0;
    uint64_t unverified = 0;
  } counts_;
  // The daemon's close hook does nothing once this is gone.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace skillnode::node::publisher

#endif  // SKILLNODE_NODE_PUBLISHER_PUBLISHER_DOMAINS_H_
