// The publisher domains a record claims, each with its state as this node knows it: what
// readers are shown beside a skill (docs/formats.md "Publisher domains", docs/api.md
// "publisherDomains"). A claim is the record publisher's word only: it is "verified" when the
// domain's publisher proof lists the record's publisher key, "unverified" (with the reason)
// when the proof does not or cannot be had, and "checking" while this node has no answer yet.
//
// Pure: the answers come from a lookup the caller gives (PublisherDomains reads its
// DomainVerifier's cache).
#ifndef SKILLNODE_NODE_PUBLISHER_DOMAIN_CLAIMS_H_
#define SKILLNODE_NODE_PUBLISHER_DOMAIN_CLAIMS_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kademlia/store/record/skill_record.h"
#include "node/publisher/domain_verifier.h"

namespace skillnode::node::publisher {

enum class ClaimState : uint8_t { kVerified, kUnverified, kChecking };
std::string_view ClaimStateName(ClaimState state);  // "verified", "unverified", "checking"

struct DomainClaim {
  std::string domain;
  ClaimState state = ClaimState::kChecking;
  std::string reason;  // kUnverified: why
  bool operator==(const DomainClaim&) const = default;
};

// What the node knows of one domain's proof for one key: nullopt while it has no answer.
using CachedCheck = std::function<std::optional<DomainCheck>(std::string_view domain,
                                                             const kademlia::PublicKey& key)>;

// One claim per domain the record claims, in the record's order.
std::vector<DomainClaim> ClaimsOf(const kademlia::store::SkillRecord& record,
                                  const CachedCheck& cached);
// [{"domain", "state", "reason" (unverified only)}].
nlohmann::json ClaimsJson(const std::vector<DomainClaim>& claims);

}  // namespace skillnode::node::publisher

#endif  // SKILLNODE_NODE_PUBLISHER_DOMAIN_CLAIMS_H_
