#include "kademlia/reach/address_vote.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace skillnode::kademlia::reach {

namespace {

// The leader of `tally` and its count, when it has at least `quorum` and more than half of
// `total`.
template <typename T>
std::optional<T> Leader(const std::map<T, size_t>& tally, size_t total, size_t quorum) {
  const auto best = std::max_element(
      tally.begin(), tally.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  if (best == tally.end() || best->second < quorum || best->second * 2 <= total)
    return std::nullopt;
  return best->first;
}

}  // namespace

transport::Endpoint AddressVote::GroupOf(const transport::Endpoint& voter) {
  const transport::Address& address = voter.address();
  if (!address.IsPublic()) return voter;
  return transport::Endpoint(address.Masked(address.is_v4() ? 24 : 48), 0);
}

void AddressVote::Observe(transport::TimePoint now, const transport::Endpoint& voter,
                          const transport::Endpoint& observed) {
  const transport::Address& seen = observed.address();
  if (observed.port() == 0 || seen.IsUnspecified() || seen.IsMulticast()) return;
  const transport::Endpoint group = GroupOf(voter);
  const auto it = votes_.find(group);
  if (it != votes_.end() && it->second.observed == observed) {
    // The same claim again: refresh it now and then; the verdict does not change.
    if (now - it->second.cast >= config_.vote_refresh) it->second.cast = now;
    if (Expire(now)) Recount();
    return;
  }
  if (it != votes_.end()) {
    it->second = Vote{observed, now};
  } else {
    if (config_.votes_max == 0) return;
    while (votes_.size() >= config_.votes_max) DropOldest();
    votes_.emplace(group, Vote{observed, now});
  }
  oldest_cast_ = std::min(oldest_cast_, now);
  Expire(now);
  Recount();
}

const ExternalAddress& AddressVote::Current(transport::TimePoint now) {
  if (Expire(now)) Recount();
  return current_;
}

bool AddressVote::Expire(transport::TimePoint now) {
  if (oldest_cast_ == transport::kTimeNever || now - oldest_cast_ < config_.vote_life) {
    return false;
  }
  const size_t before = votes_.size();
  std::erase_if(votes_,
                [&](const auto& entry) { return now - entry.second.cast >= config_.vote_life; });
  oldest_cast_ = transport::kTimeNever;
  for (const auto& [group, vote] : votes_) oldest_cast_ = std::min(oldest_cast_, vote.cast);
  return votes_.size() != before;
}

void AddressVote::DropOldest() {
  assert(!votes_.empty());
  const auto oldest =
      std::min_element(votes_.begin(), votes_.end(),
                       [](const auto& a, const auto& b) { return a.second.cast < b.second.cast; });
  votes_.erase(oldest);
  oldest_cast_ = transport::kTimeNever;
  for (const auto& [group, vote] : votes_) oldest_cast_ = std::min(oldest_cast_, vote.cast);
}

void AddressVote::Recount() {
  std::map<transport::Address, size_t> by_address;
  for (const auto& [group, vote] : votes_) ++by_address[vote.observed.address()];
  ExternalAddress next;
  next.votes = votes_.size();
  next.address = Leader(by_address, votes_.size(), config_.vote_quorum);
  if (next.address) {
    std::map<transport::Endpoint, size_t> by_endpoint;
    for (const auto& [group, vote] : votes_) {
      if (vote.observed.address() == *next.address) ++by_endpoint[vote.observed];
    }
    next.endpoint = Leader(by_endpoint, by_address[*next.address], config_.vote_quorum);
    next.mapping = next.endpoint ? PortMapping::kStable : PortMapping::kVarying;
  }
  // A change of the vote count alone is not a change of the verdict.
  const bool changed = next.address != current_.address || next.endpoint != current_.endpoint ||
                       next.mapping != current_.mapping;
  current_ = next;
  if (changed) ++generation_;
}

}  // namespace skillnode::kademlia::reach
