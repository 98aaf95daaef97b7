#include "node/publisher/domain_verifier.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "kademlia/store/record/record_origin.h"
#include "node/publisher/publisher_proof.h"

namespace skillnode::node::publisher {

std::string_view DomainVerdictName(DomainVerdict verdict) {
  return verdict == DomainVerdict::kVerified ? "verified" : "unverified";
}

DomainVerifier::DomainVerifier(transport::uv::UvLoop& loop,
                               importers::fetch::ImportFetcher& fetcher,
                               DomainVerifierConfig config)
    : loop_(loop), fetcher_(fetcher), config_(std::move(config)) {}

DomainCheck DomainVerifier::Verdict(
    const transport::Result<std::vector<kademlia::PublicKey>>& proof, std::string_view domain,
    const kademlia::PublicKey& key) {
  if (!proof) return {DomainVerdict::kUnverified, proof.error().message};
  if (std::find(proof->begin(), proof->end(), key) != proof->end()) {
    return {DomainVerdict::kVerified, ""};
  }
  return {DomainVerdict::kUnverified,
          std::string(domain) + "'s publisher proof does not list this publisher's key"};
}

std::optional<DomainCheck> DomainVerifier::Cached(std::string_view domain,
                                                  const kademlia::PublicKey& key) const {
  const auto it = cache_.find(domain);
  if (it == cache_.end() || !it->second.proof || it->second.expires <= loop_.Now()) {
    return std::nullopt;
  }
  return Verdict(*it->second.proof, domain, key);
}

bool DomainVerifier::Fetching(std::string_view domain) const {
  const auto it = cache_.find(domain);
  return it != cache_.end() && !it->second.proof;
}

void DomainVerifier::Check(std::string_view domain, const kademlia::PublicKey& key,
                           std::function<void(DomainCheck)> done) {
  if (!kademlia::store::IsDomainName(domain)) {
    return done(
        {DomainVerdict::kUnverified,
         "\"" + std::string(domain) + "\" is not a domain name a proof can be fetched for"});
  }
  if (auto cached = Cached(domain, key); cached) return done(std::move(*cached));
  auto it = cache_.find(domain);
  if (it != cache_.end() && !it->second.proof) {  // a fetch is on its way
    it->second.waiters.push_back({key, std::move(done)});
    return;
  }
  if (it == cache_.end()) {
    MakeRoom();
    it = cache_.emplace(std::string(domain), Entry{}).first;
  }
  it->second.proof.reset();
  it->second.waiters.push_back({key, std::move(done)});
  std::string url = config_.url_template;
  if (const size_t at = url.find("{domain}"); at != std::string::npos) {
    url.replace(at, 8, domain);
  }
  ++fetches_;
  fetcher_.Fetch(
      url, config_.limits,
      [this, name = std::string(domain)](transport::Result<importers::fetch::Fetched> got) {
        if (!got) return Fetched(name, tl::unexpected(std::move(got.error())));
        Fetched(name, ReadPublisherProof(got->body));
      });
}

void DomainVerifier::Fetched(const std::string& domain,
                             transport::Result<std::vector<kademlia::PublicKey>> proof) {
  const auto it = cache_.find(domain);
  assert(it != cache_.end() && !it->second.proof);
  it->second.expires = loop_.Now() + (proof ? config_.ttl : config_.failure_ttl);
  it->second.proof = std::move(proof);
  auto waiters = std::move(it->second.waiters);
  it->second.waiters.clear();
  // A waiter may check again and change the cache: answer from a copy.
  const auto answer = *it->second.proof;
  for (Waiter& waiter : waiters) waiter.done(Verdict(answer, domain, waiter.key));
}

void DomainVerifier::MakeRoom() {
  while (cache_.size() >= config_.domains_max) {
    auto victim = cache_.end();
    for (auto it = cache_.begin(); it != cache_.end(); ++it) {
      if (!it->second.proof) continue;  // being fetched: its waiters must be answered
      if (victim == cache_.end() || it->second.expires < victim->second.expires) victim = it;
    }
    if (victim == cache_.end()) return;  // every entry is being fetched
    cache_.erase(victim);
  }
}

}  // namespace skillnode::node::publisher
