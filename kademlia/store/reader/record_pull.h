// RecordPull: how this node takes a record that came as a reference (docs/protocol.md "Records
// larger than a datagram"). A STORE, a VALUES answer or a PUSH may carry, instead of a record's
// encoding, a reference {SHA-256 of the encoding, size, signature}; the encoding is then pulled
// from the peer that sent the reference, with BLOB_GET in chunks, through a BlobFetcher of
// named holders (kademlia/blobs/blob_fetcher.h: retransmission, the hash checked, a holder that
// serves wrong bytes remembered), and verified as an inline record would be.
//
// Resolve first looks for a copy this node already has: a record it holds, serves or verified
// lately with the reference's signature and digest, or the served bytes of the digest under the
// reference's signature. Only when there is none does Pull fetch it. At most record_pulls_max
// pulls run at once and at most kPullWaitersMax callers wait on one; a further Pull is refused
// (the caller answers or counts that). A pull whose sender does not deliver within
// record_pull_timeout (or answers "not held", or sends bytes that hash wrong) fails, and
// nothing is taken from it. Pulls of one digest share one transfer; a further sender of the
// reference becomes the next holder to ask.
//
// Owns its fetcher and the pulls' callbacks; the node, the verifier, the store, the outbox and
// the stats are SkillDht's. Callbacks are called exactly once, from a later event, unless the
// puller is destroyed first (then never). Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_READER_RECORD_PULL_H_
#define SKILLNODE_KADEMLIA_STORE_READER_RECORD_PULL_H_

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "kademlia/blobs/blob_fetcher.h"
#include "kademlia/node.h"
#include "kademlia/store/holder/value_store.h"
#include "kademlia/store/record/record_verifier.h"
#include "kademlia/store/record_outbox.h"
#include "kademlia/store/skill_dht_types.h"

namespace skillnode::kademlia::store {

// Callers waiting on one pull at most: the senders of one reference at once (a STORE, its
// repeats, the pushes of a few holders).
constexpr size_t kPullWaitersMax = 16;

// The verified record a pulled reference named, or why there is none.
using PullCallback =
    std::function<void(transport::TimePoint now, const transport::Result<SignedRecordPtr>&)>;

class RecordPull {
 public:
  RecordPull(Node& node, const DhtConfig& config, RecordVerifier& verifier, const ValueStore& store,
             const RecordOutbox& outbox, DhtStats& stats);
  ~RecordPull();
  RecordPull(const RecordPull&) = delete;
  RecordPull& operator=(const RecordPull&) = delete;

  // The record `wire` carries when this node can tell at once: an inline record, verified; a
  // reference to a copy this node has; or a malformed reference (its size is not one of a record
  // too large to travel inline), an error. Nullopt: the reference must be pulled.
  [[nodiscard]] std::optional<transport::Result<SignedRecordPtr>> Resolve(
      const wire::WireRecord& wire);
  // Pulls the encoding the reference `wire` names from `sender` (Resolve said nullopt) and
  // verifies it. Returns false, without calling `done`, when no pull may start now.
  [[nodiscard]] bool Pull(transport::TimePoint now, const wire::WireRecord& wire,
                          const wire::WireContact& sender, PullCallback done);

  // The fetcher's timers (SkillDht's OnTimer and NextDeadline): kTimeNever while no pull runs.
  void OnTimer(transport::TimePoint now);
  transport::TimePoint NextDeadline() const;

  size_t running() const { return fetcher_.running(); }
  const blobs::BlobStats& blob_stats() const { return blob_stats_; }

 private:
  struct Waiter {
    Signature signature{};
    PullCallback done;
  };

  void OnFetched(const wire::BlobDigest& digest, const blobs::FetchOutcome& outcome);

  const DhtConfig& config_;
  RecordVerifier& verifier_;
  const ValueStore& store_;
  const RecordOutbox& outbox_;
  DhtStats& stats_;
  blobs::BlobStats blob_stats_;
  // Declared before the fetcher, whose callbacks look the pull up here.
  std::map<wire::BlobDigest, std::vector<Waiter>> waiting_;
  blobs::BlobFetcher fetcher_;
  transport::TimePoint next_tick_ = transport::kTimeNever;
};

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_READER_RECORD_PULL_H_
