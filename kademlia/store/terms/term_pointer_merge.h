// TermPointerMerge: what a reader of one term (TermGetter, term_getter.h) has found so far, over
// all the shards it read. Every copy from the network is checked before it counts: its signature
// and fields (VerifyTermPointer), that the key it came under is one of the term's shards
// (TermShardOf, the shard the reader asked), and its validity window (RecordWindow, as the
// holders check it). Copies are merged to the newest version per identity (publisher, agentId,
// skillId): a higher sequence replaces a lower, so a tombstone buries the pointer it replaces
// and is never live. A copy already verified (the same bytes and signature from another holder)
// is not verified again. A filtered read (FIND_VALUE's "wf") merges with the same filter: a live
// pointer whose profile lacks one of the hashes is merged (a newer version still replaces an
// older one) but not live, as a holder that ignores the filter may send it.
//
// Owns the pointers it keeps; the window and the signature scheme are the caller's and must
// outlive it. No I/O; not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_TERMS_TERM_POINTER_MERGE_H_
#define SKILLNODE_KADEMLIA_STORE_TERMS_TERM_POINTER_MERGE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kademlia/key.h"
#include "kademlia/signature_scheme.h"
#include "kademlia/store/record/record_window.h"
#include "kademlia/store/record/term_pointer.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"

namespace skillnode::kademlia::store::terms {

class TermPointerMerge {
 public:
  using PointerPtr = std::shared_ptr<const SignedTermPointer>;
  // The newest version of one identity, the shard it was found under, and the longest time a
  // holder of that version said it has left (`told` false when none did).
  struct Newest {
    PointerPtr pointer;
    uint32_t shard = 0;
    uint32_t seconds_left = 0;
    bool told = false;
  };
  // What a taken copy was: its identity and sequence (a holder's answer held it).
  struct Taken {
    RecordIdentity identity;
    uint64_t sequence = 0;
    bool passes = true;  // the copy passes the read's filter (Passes)
  };

  TermPointerMerge(std::string term, const RecordWindow& window, const SignatureScheme& signatures,
                   std::vector<uint16_t> with_terms = {});
  TermPointerMerge(const TermPointerMerge&) = delete;
  TermPointerMerge& operator=(const TermPointerMerge&) = delete;

  // A copy from a holder's answer under the term's shard `shard`, with the seconds the holder
  // said it has left. Nothing when it fails a check (counted in rejected()).
  std::optional<Taken> Take(transport::TimePoint now, uint32_t shard, const wire::WireRecord& copy,
                            std::optional<uint32_t> seconds_left);
  // A copy this node holds under shard `shard` (verified when it was stored): only its window is
  // checked again.
  std::optional<Taken> TakeHeld(transport::TimePoint now, uint32_t shard,
                                const SignedTermPointer& held, uint32_t seconds_left);

  // Whether `pointer` passes the read's filter: a tombstone, or a profile holding every hash.
  bool Passes(const TermPointer& pointer) const {
    return pointer.tombstone || pointer.terms.HoldsAll(with_terms_);
  }
  // Distinct identities whose newest version is live (not a tombstone) and passes the filter.
  size_t live() const { return live_; }
  // Copies refused: forged, malformed, a reference, under a key not of the term, or outside
  // their window (those also in outside_window()).
  size_t rejected() const { return rejected_; }
  size_t outside_window() const { return outside_window_; }
  const std::map<RecordIdentity, Newest>& newest() const { return newest_; }
  // The live pointers that pass the filter, newest per identity, heaviest first (ties in
  // identity order).
  std::vector<SignedTermPointer> Live() const;

 private:
  std::optional<Taken> Merge(transport::TimePoint now, uint32_t shard, const PointerPtr& pointer,
                             std::optional<uint32_t> seconds_left);

  // Counted in live(): live, and passes the filter.
  bool Counts(const TermPointer& pointer) const {
    return !pointer.tombstone && pointer.terms.HoldsAll(with_terms_);
  }

  std::string term_;
  std::vector<uint16_t> with_terms_;
  const RecordWindow& window_;
  const SignatureScheme& signatures_;
  std::map<RecordIdentity, Newest> newest_;
  // Copies verified already, by SHA-256 of their encoding and signature.
  std::map<Key, PointerPtr> verified_;
  size_t live_ = 0;
  size_t rejected_ = 0;
  size_t outside_window_ = 0;
};

}  // namespace skillnode::kademlia::store::terms

#endif  // SKILLNODE_KADEMLIA_STORE_TERMS_TERM_POINTER_MERGE_H_
