#include "kademlia/verified_records.h"

#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

namespace skillnode::kademlia {

static_assert(crypto_shorthash_KEYBYTES == 16 && crypto_shorthash_BYTES == 8);

namespace {

// The key only places entries in the table; what a lookup finds does not depend on it, so a
// simulation stays deterministic for its seed.
template <typename Hash>
Hash RandomlyKeyed() {
  Hash hash;
  randombytes_buf(hash.key.data(), hash.key.size());
  return hash;
}

}  // namespace

VerifiedRecords::VerifiedRecords(size_t max)
    : max_(max), index_(0, RandomlyKeyed<SignatureHash>()) {}

size_t VerifiedRecords::SignatureHash::operator()(const Signature& signature) const {
  std::array<uint8_t, crypto_shorthash_BYTES> out{};
  crypto_shorthash(out.data(), signature.data(), signature.size(), key.data());
  uint64_t value = 0;
  std::memcpy(&value, out.data(), sizeof value);
  return static_cast<size_t>(value);
}

Result<SignedRecordPtr> VerifiedRecords::Verify(std::span<const uint8_t> encoded,
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

}  // namespace skillnode::kademlia
