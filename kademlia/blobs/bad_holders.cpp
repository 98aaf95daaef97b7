// BadHolders (bad_holders.h): corrupt holders remembered per digest, bounded and expiring.
#include "kademlia/blobs/bad_holders.h"

#include <cassert>

namespace skillnode::kademlia::blobs {

BadHolders::BadHolders(size_t max, transport::Duration memory) : max_(max), memory_(memory) {
  assert(max_ > 0);  // Note needs room for one pair
}

bool BadHolders::Has(transport::TimePoint now, const wire::BlobDigest& digest,
                     const NodeId& holder) const {
  auto found = until_.find({digest, holder});
  return found != until_.end() && found->second > now;
}

void BadHolders::Note(transport::TimePoint now, const wire::BlobDigest& digest,
                      const NodeId& holder) {
  if (until_.size() >= max_) {
    Sweep(now);
    if (until_.size() >= max_) until_.erase(until_.begin());
  }
  until_[{digest, holder}] = now + memory_;
  assert(until_.size() <= max_);
}

void BadHolders::Sweep(transport::TimePoint now) {
  std::erase_if(until_, [&](const auto& entry) { return entry.second <= now; });
}

}  // namespace skillnode::kademlia::blobs
