// RecordVerifier: the checks every skill record from the network passes before the skill store
// takes it (a STORE, a get's answer, a push): its signature, checked once per copy seen
// (VerifiedRecords, verified_records.h) and counted in DhtStats, and the network's record
// policy (RecordPolicy, skill_dht_types.h). The validity window is RecordWindow's
// (record_window.h); whether a record belongs under a key is BelongsUnder
// (skill_dht_internal.h). Each caller applies these in its own order, which decides the reason
// it reports.
//
// Owns the table of verified records; the stats and the signature scheme are the SkillDht's
// and the Node's. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_VERIFIER_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_VERIFIER_H_

#include <cstddef>
#include <utility>

#include "kademlia/keyed_hash.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/store/record/verified_records.h"
#include "kademlia/store/skill_dht_types.h"

namespace skillnode::kademlia::store {

class RecordVerifier {
 public:
  RecordVerifier(size_t verified_records_max, const HashKey& hash_key,
                 const SignatureScheme& signatures, DhtStats& stats);
  RecordVerifier(const RecordVerifier&) = delete;
  RecordVerifier& operator=(const RecordVerifier&) = delete;

  // The record `wire` carries, its signature checked unless this very copy was checked before;
  // counted as records_verified or records_verified_again.
  [[nodiscard]] transport::Result<SignedRecordPtr> Verify(const wire::WireRecord& wire);
  // A record verified lately with this signature, if any (a reference's copy at hand).
  SignedRecordPtr Known(const Signature& signature) const { return verified_.Find(signature); }
  // Records in the table of verified copies (at most verified_records_max).
  size_t cached() const { return verified_.size(); }
  // Whether the network's policy takes `record` (always, without a policy).
  [[nodiscard]] transport::Result<void> Admit(const SignedRecord& record) const;
  bool has_policy() const { return static_cast<bool>(policy_); }
  void SetPolicy(RecordPolicy policy) { policy_ = std::move(policy); }

 private:
  const SignatureScheme& signatures_;
  DhtStats& stats_;
  VerifiedRecords verified_;
  RecordPolicy policy_;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_RECORD_VERIFIER_H_
