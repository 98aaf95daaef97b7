// VerifiedRecords: the records whose signature this node has already checked, so that one
// record arriving from each of its holders (a get's answers from the r holders, the listen
// pushes that follow, a republish) is decoded and verified once rather than once per copy.
//
// A hit needs the very signature and bytes that were verified; anything else is verified in
// full. The table is keyed by the signature through SipHash under the node's secret key
// (kademlia/keyed_hash.h), so records cannot be ground into one bucket, and holds at most
// `max` records, the least recently used going first. A hit returns the shared copy, so every get
// and subscription holding the record shares one allocation. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_VERIFIED_RECORDS_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_VERIFIED_RECORDS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>

#include "kademlia/identity.h"
#include "kademlia/keyed_hash.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/store/record/skill_record.h"
#include "transport/result.h"

namespace skillnode::kademlia::store {

class VerifiedRecords {
 public:
  // max == 0 turns the table off: every record is verified in full.
  VerifiedRecords(size_t max, const HashKey& key);

  // The record `encoded` and `signature` make, verified (VerifyRecord) unless the same bytes
  // under the same signature were verified before; a failure is never remembered.
  [[nodiscard]] transport::Result<SignedRecordPtr> Verify(std::span<const uint8_t> encoded,
                                                          const Signature& signature,
                                                          const SignatureScheme& signatures);

  // The verified record with this signature, if the table holds it (its order is not touched).
  SignedRecordPtr Find(const Signature& signature) const {
    auto it = index_.find(signature);
    return it == index_.end() ? nullptr : *it->second;
  }

  size_t size() const { return index_.size(); }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  struct SignatureHash {
    HashKey key{};
    size_t operator()(const Signature& signature) const {
      return static_cast<size_t>(SipHash(signature, key));
    }
  };
  using Order = std::list<SignedRecordPtr>;  // most recently used first

  size_t max_;
  Order order_;
  std::unordered_map<Signature, Order::iterator, SignatureHash> index_;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_VERIFIED_RECORDS_H_
