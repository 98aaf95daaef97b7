// BlobFetcher: BlobService's fetcher side (kademlia/blobs/blob_service.h). Fetch(digest, size,
// publisher) has a HolderLocator find and order the holders, then moves the blob from one
// holder at a time in kBlobChunkBytesMax chunks with `window` requests in flight, asking again
// for a chunk whose request is unanswered after the holder's retransmission timeout (four
// smoothed round trips, 20 ms to 1 s, doubled per attempt). A ChunkWindow (chunk_window.h)
// keeps that account of each transfer; the fetcher sends the requests and judges the answers.
// The bytes are handed out only when their SHA-256 is the digest. A holder that answers with bytes
// that do not hash to the digest
// ("corrupt"), a wrong size or a short chunk ("truncated"), "not_held", or stops answering
// ("timeout") is left for the next one, and a corrupt holder is not asked for that digest
// again for bad_holder_memory (BadHolders, bad_holders.h). Fetches of one digest share one
// transfer; at most fetches_max run at once.
//
// FetchFrom moves a blob from one named holder, without locating: the skill store pulls a record
// too large for a datagram from the peer that sent its reference
// (kademlia/store/reader/record_pull.h). A fetcher made without a directory and an Rng fetches only
// that way.
//
// Owned by BlobService, which drives it from its timer; no I/O of its own (requests go through
// the Node). Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_BLOBS_BLOB_FETCHER_H_
#define SKILLNODE_KADEMLIA_BLOBS_BLOB_FETCHER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kademlia/blobs/bad_holders.h"
#include "kademlia/blobs/blob_service.h"
#include "kademlia/blobs/chunk_window.h"
#include "kademlia/blobs/holder_directory.h"
#include "kademlia/blobs/holder_locator.h"
#include "kademlia/node.h"

namespace skillnode::kademlia::blobs {

class BlobFetcher {
 public:
  // `node`, `directory` (this node's own, read when locating), `rng` and `stats` (where the
  // fetch counters go) must outlive the fetcher.
  BlobFetcher(Node& node, const HolderDirectory& directory, const BlobConfig& config,
              transport::Rng& rng, BlobStats& stats);
  // A fetcher of named holders only (FetchFrom; Fetch is a programmer error).
  BlobFetcher(Node& node, const BlobConfig& config, BlobStats& stats);
  ~BlobFetcher();
  BlobFetcher(const BlobFetcher&) = delete;
  BlobFetcher& operator=(const BlobFetcher&) = delete;

  // As BlobService::Fetch: `done` is called exactly once, possibly before Fetch returns when
  // the fetch is refused at once (kBusy, kTooLarge).
  void Fetch(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
             std::optional<NodeId> publisher, FetchCallback done);
  // Fetches `size` bytes that hash to `digest` from `holder`, which is asked as a located holder
  // is (chunks, retransmission, the hash checked; a corrupt holder is remembered). A fetch of
  // the digest already running is joined, and `holder` becomes its next holder to try when it
  // is not among them yet. `done` as in Fetch.
  void FetchFrom(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
                 const wire::WireContact& holder, FetchCallback done);
  // When a holder asked to wait or a retransmission is due: every transfer sends what it may.
  transport::TimePoint pump_at() const { return pump_at_; }
  // Sends what is due if pump_at() has come.
  void PumpIfDue(transport::TimePoint now);
  // The once-a-second work: fetches past their deadline fail (kFailed, with the holders tried),
  // then every transfer sends what a full request table held back.
  void OnTick(transport::TimePoint now);
  // Forgets the corrupt holders whose memory ended.
  void Sweep(transport::TimePoint now);
  // Ends every fetch (kFailed, "the node is shutting down").
  void Shutdown();

  size_t running() const { return fetches_.size(); }
  size_t bad_holders() const { return bad_holders_.size(); }
  // Whether a fetch of `digest` is running.
  bool Running(const wire::BlobDigest& digest) const { return fetches_.contains(digest); }

 private:
  // One fetch's state.
  struct Fetching {
    // Locating: the HolderLocator runs. Transferring: `holder` is the one being asked.
    enum class Stage : uint8_t { kLocating, kTransferring };

    explicit Fetching(size_t window) : chunks(window) {}
    bool transferring() const { return stage == Stage::kTransferring; }

    Stage stage = Stage::kLocating;
    uint64_t size = 0;
    std::optional<NodeId> publisher;
    std::vector<FetchCallback> waiters;
    transport::TimePoint deadline = transport::kTimeNever;

    // Holders to try, in order, and the next one's index.
    std::vector<wire::WireContact> candidates;
    size_t next_candidate = 0;
    std::vector<HolderAttempt> attempts;

    // The transfer from the current holder; a new holder starts a new generation, and replies
    // to an older one's requests are ignored.
    wire::WireContact holder;
    uint64_t generation = 0;
    std::string buffer;
    ChunkWindow chunks;  // which chunks of `buffer` are wanted, in flight, here
  };

  // A new fetch, or nullptr after `done` was told why it is refused at once.
  std::unique_ptr<Fetching> Start(transport::TimePoint now, uint64_t size, FetchCallback& done);
  void OnLocated(transport::TimePoint now, const wire::BlobDigest& digest,
                 std::vector<wire::WireContact> holders);
  void NextHolder(transport::TimePoint now, const wire::BlobDigest& digest);
  void Pump(transport::TimePoint now, const wire::BlobDigest& digest);
  void PumpAll(transport::TimePoint now);
  void OnChunk(const wire::BlobDigest& digest, uint64_t generation, size_t chunk, uint8_t attempt,
               const rpc::RpcResult& result);
  void DropHolder(transport::TimePoint now, const wire::BlobDigest& digest, HolderFailure failure,
                  std::string detail);
  void Complete(transport::TimePoint now, const wire::BlobDigest& digest);
  // Ends the fetch of `digest` at `now` (kTimeZero at shutdown): every waiter gets `outcome`.
  void Finish(transport::TimePoint now, const wire::BlobDigest& digest, FetchOutcome outcome);

  Node& node_;
  BlobConfig config_;
  BlobStats& stats_;
  std::optional<HolderLocator> locator_;  // none: a fetcher of named holders only
  std::map<wire::BlobDigest, std::unique_ptr<Fetching>> fetches_;
  BadHolders bad_holders_;
  // A holder asked us to wait (rate, or verifying our address): transfers resume then.
  transport::TimePoint pump_at_ = transport::kTimeNever;
  uint64_t next_generation_ = 1;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_BLOB_FETCHER_H_
