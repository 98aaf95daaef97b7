// RecordVerifier (record_verifier.h): signature checks through the verified-record table, and
// the record policy.
#include "kademlia/store/record/record_verifier.h"

namespace skillnode::kademlia::store {

RecordVerifier::RecordVerifier(size_t verified_records_max, const HashKey& hash_key,
                               const SignatureScheme& signatures, DhtStats& stats)
    : signatures_(signatures), stats_(stats), verified_(verified_records_max, hash_key) {}

transport::Result<SignedRecordPtr> RecordVerifier::Verify(const wire::WireRecord& wire) {
  const uint64_t checked = verified_.misses();
  auto record = verified_.Verify(wire.encoded, wire.signature, signatures_);
  ++(verified_.misses() != checked ? stats_.records_verified : stats_.records_verified_again);
  return record;
}

transport::Result<void> RecordVerifier::Admit(const SignedRecord& record) const {
  if (!policy_) return {};
  return policy_(record);
}

}  // namespace skillnode::kademlia::store
