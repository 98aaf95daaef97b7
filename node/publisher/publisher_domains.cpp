// PublisherDomains (publisher_domains.h): the verifier's wiring on the daemon.
#include "node/publisher/publisher_domains.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "node/http/prometheus.h"

namespace skillnode::node::publisher {
namespace {

// A failed fetch is tried again sooner than a proof is, but never later than the proof ttl.
constexpr transport::Duration kFailureTtlMax = transport::Seconds(300);

DomainVerifierConfig VerifierConfigOf(const config::Config& config) {
  DomainVerifierConfig out;
  out.ttl = config.provider.domain_proof_ttl;
  out.failure_ttl = std::min(config.provider.domain_proof_ttl, kFailureTtlMax);
  out.domains_max = kProofDomainsCachedMax;
  out.url_template = config.provider.domain_proof_url;
  out.limits.timeout = std::min(out.limits.timeout, config.import.fetch_timeout);
  return out;
}

}  // namespace

PublisherDomains::PublisherDomains(Daemon& daemon)
    : daemon_(daemon),
      http_(daemon.env().loop(),
            transport::uv::HttpClientConfig{kProofFetchesInFlightMax, kProofFetchesInFlightMax}) {
  const config::ImportConfig& import = daemon.config().import;
  auto policy = importers::fetch::FetchPolicy::Create(import.allowed_hosts, import.allow_http);
  if (policy) {
    fetcher_.emplace(daemon.env().loop(), http_, std::move(*policy));
    verifier_.emplace(daemon.env().loop(), *fetcher_, VerifierConfigOf(daemon.config()));
  } else {
    policy_error_ = "import.allowedHosts: " + policy.error().message;
  }
  daemon_.AddNodeInfo("publisherDomains", [this] { return Info(); });
  daemon_.AddMetrics([this](http::PrometheusWriter& out) { WriteMetrics(out); });
  // A daemon that never ran closes its handles when it is destroyed, which may be after this.
  daemon_.AddCloseHook([this, alive = std::weak_ptr<int>(alive_)] {
    if (alive.expired()) return;
    if (fetcher_) fetcher_->Close();
    http_.Close();
  });
}

PublisherDomains::~PublisherDomains() {
  if (fetcher_) fetcher_->Close();
  http_.Close();
}

std::vector<DomainClaim> PublisherDomains::Claims(const kademlia::store::SkillRecord& record) {
  if (record.publisher_domains.empty()) return {};
  return ClaimsOf(record,
                  [this](std::string_view domain,
                         const kademlia::PublicKey& key) -> std::optional<DomainCheck> {
                    if (!verifier_) return DomainCheck{DomainVerdict::kUnverified, policy_error_};
                    if (auto cached = verifier_->Cached(domain, key); cached) return cached;
                    if (!verifier_->Fetching(domain)) Check(domain, key, [](DomainCheck) {});
                    return std::nullopt;
                  });
}

void PublisherDomains::Check(std::string_view domain, const kademlia::PublicKey& key,
                             std::function<void(DomainCheck)> done) {
  if (!verifier_) return done({DomainVerdict::kUnverified, policy_error_});
  ++counts_.checks_started;
  verifier_->Check(domain, key, [this, done = std::move(done)](DomainCheck check) {
    ++(check.verdict == DomainVerdict::kVerified ? counts_.verified : counts_.unverified);
    done(std::move(check));
  });
}

nlohmann::json PublisherDomains::Info() const {
  const config::ProviderConfig& provider = daemon_.config().provider;
  nlohmann::json out = {{"claimed", provider.domains},
                        {"proofUrl", provider.domain_proof_url},
                        {"cachedDomains", verifier_ ? verifier_->cached() : 0},
                        {"available", verifier_.has_value()}};
  if (!verifier_) out["error"] = policy_error_;
  return out;
}

void PublisherDomains::WriteMetrics(http::PrometheusWriter& out) const {
  out.Family("skillnode_publisher_domain_checks_total", "counter",
             "Checks of a publisher domain's proof for a key, by verdict.");
  out.Sample("skillnode_publisher_domain_checks_total", {{"result", "verified"}},
             static_cast<double>(counts_.verified));
  out.Sample("skillnode_publisher_domain_checks_total", {{"result", "unverified"}},
             static_cast<double>(counts_.unverified));
  out.Family("skillnode_publisher_domain_proof_fetches_total", "counter",
             "Publisher proofs fetched from domains.");
  out.Sample("skillnode_publisher_domain_proof_fetches_total", {},
             static_cast<double>(verifier_ ? verifier_->fetches() : 0));
  out.Family("skillnode_publisher_domains_cached", "gauge",
             "Domains whose publisher proof (or failure) this node keeps.");
  out.Sample("skillnode_publisher_domains_cached", {},
             static_cast<double>(verifier_ ? verifier_->cached() : 0));
}

}  // namespace skillnode::node::publisher
