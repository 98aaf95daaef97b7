#include "kademlia/blobs/host_ledger.h"

#include <algorithm>
#include <cassert>

namespace skillnode::kademlia::blobs {

HostLedger::Outcome HostLedger::Take(transport::TimePoint now, const wire::BlobDigest& digest,
                                     uint64_t size, const transport::Address& requester,
                                     transport::Duration lifetime) {
  const transport::TimePoint expires = now + std::min(lifetime, limits_.lifetime_max);
  const Slot slot{requester, digest};
  if (auto held = hostings_.find(slot); held != hostings_.end() && held->second.expires > now) {
    held->second.expires = expires;
    return Outcome::kRenewed;
  }
  Expire(now);
  const Tally& tally = tallies_[requester];
  if (tally.blobs >= limits_.blobs_per_address || size > limits_.bytes_per_address ||
      tally.bytes > limits_.bytes_per_address - size) {
    if (tally.blobs == 0) tallies_.erase(requester);
    return Outcome::kAddressFull;
  }
  if (hostings_.size() >= limits_.hosted_max) {
    if (tally.blobs == 0) tallies_.erase(requester);
    return Outcome::kFull;
  }
  hostings_.emplace(slot, Hosting{size, expires});
  Tally& counted = tallies_[requester];
  ++counted.blobs;
  counted.bytes += size;
  bytes_ += size;
  return Outcome::kAdded;
}

void HostLedger::Erase(std::map<Slot, Hosting>::iterator at) {
  auto tally = tallies_.find(at->first.first);
  assert(tally != tallies_.end() && tally->second.blobs > 0);
  --tally->second.blobs;
  tally->second.bytes -= at->second.size;
  if (tally->second.blobs == 0) tallies_.erase(tally);
  bytes_ -= at->second.size;
  hostings_.erase(at);
}

void HostLedger::Drop(const wire::BlobDigest& digest, const transport::Address& requester) {
  if (auto held = hostings_.find(Slot{requester, digest}); held != hostings_.end()) Erase(held);
}

size_t HostLedger::Expire(transport::TimePoint now) {
  size_t dropped = 0;
  for (auto it = hostings_.begin(); it != hostings_.end();) {
    auto next = std::next(it);
    if (it->second.expires <= now) {
      Erase(it);
      ++dropped;
    }
    it = next;
  }
  return dropped;
}

}  // namespace skillnode::kademlia::blobs
