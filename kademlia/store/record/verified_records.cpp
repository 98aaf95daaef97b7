#include "kademlia/store/record/verified_records.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace skillnode::kademlia::store {

VerifiedRecords::VerifiedRecords(size_t max, const HashKey& key)
    : max_(max), index_(0, SignatureHash{key}) {}

transport::Result<SignedRecordPtr> VerifiedRecords::Verify(std::span<const uint8_t> encoded,
                                                           const Signature& signature,
                                                           const SignatureScheme& signatures) {
  if (auto it = index_.find(signature); it != index_.end()) {
    const SignedRecordPtr& known = *it->second;
    if (std::equal(encoded.begin(), encoded.end(), known->encoded.begin(), known->encoded.end())) {
      ++hits_;
      order_.splice(order_.begin(), order_, it->second);
      return known;
    }
    // The same signature over other bytes cannot verify: VerifyRecord says why below.
  }
  ++misses_;
  auto verified = VerifyRecord(encoded, signature, signatures);
  if (!verified) return tl::unexpected(verified.error());
  auto record = std::make_shared<const SignedRecord>(std::move(*verified));
  if (max_ == 0 || index_.contains(signature)) return record;
  if (index_.size() >= max_) {
    index_.erase(order_.back()->signature);
    order_.pop_back();
  }
  order_.push_front(record);
  index_.emplace(signature, order_.begin());
  return record;
}

}  // namespace skillnode::kademlia::store
