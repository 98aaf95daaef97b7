// ClaimsOf and ClaimsJson (domain_claims.h).
#include "node/publisher/domain_claims.h"

#include <array>

namespace skillnode::node::publisher {
namespace {

constexpr std::array<std::string_view, 3> kStateNames = {"verified", "unverified", "checking"};

}  // namespace

std::string_view ClaimStateName(ClaimState state) {
  return kStateNames.at(static_cast<size_t>(state));
}

std::vector<DomainClaim> ClaimsOf(const kademlia::store::SkillRecord& record,
                                  const CachedCheck& cached) {
  std::vector<DomainClaim> claims;
  claims.reserve(record.publisher_domains.size());
  for (const std::string& domain : record.publisher_domains) {
    DomainClaim claim{domain, ClaimState::kChecking, ""};
    if (auto check = cached(domain, record.publisher); check) {
      claim.state = check->verdict == DomainVerdict::kVerified ? ClaimState::kVerified
                                                               : ClaimState::kUnverified;
      claim.reason = std::move(check->reason);
    }
    claims.push_back(std::move(claim));
  }
  return claims;
}

nlohmann::json ClaimsJson(const std::vector<DomainClaim>& claims) {
  nlohmann::json out = nlohmann::json::array();
  for (const DomainClaim& claim : claims) {
    nlohmann::json one = {{"domain", claim.domain}, {"state", ClaimStateName(claim.state)}};
    if (claim.state == ClaimState::kUnverified) one["reason"] = claim.reason;
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace skillnode::node::publisher
