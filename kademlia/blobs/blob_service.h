// BlobService: bytes named by their SHA-256 (a skill's SKILL.md and folder archive), found and
// moved over the DHT's own UDP socket (docs/protocol.md "Blobs").
//
// Holder side: answers BLOB_GET with one chunk of a blob its BlobSource holds (ERROR kNotHeld
// otherwise) through a ChunkServer (kademlia/blobs/chunk_server.h): to peers verified at their
// address only, metered per source IP in chunks per second (the node's request limiter leaves
// BLOB_GET to this service, so a transfer does not spend a peer's lookup budget).
// Directory side: as one of the nodes closest to a blob's key, answers BLOB_FIND with the
// holders announced under it and BLOB_ANNOUNCE after checking the write token, as STORE does.
// Announcer side: Announce(digest) tells the r nodes closest to BlobKey(digest) that this node
// holds the bytes, and renews that every announce_interval until Withdraw.
//
// A node answering BLOB_FIND for a blob it announces says it holds it too ("me").
//
// Hosting (docs/protocol.md "Hosted blobs"): a node in client mode (strangers cannot reach it)
// would be a holder nobody can fetch from, so it announces nothing: for each blob of its own it
// asks the host_replicas directory nodes closest to the blob's key to host it (BLOB_HOST); each
// fetches the bytes from it (its NAT lets the answers to its own request's peer in), keeps them
// as a copy (HeldBlobs::Keep) and announces them, within HostLimits per requester address.
// Its copies of other nodes' blobs wait until it is a full node again. Directory nodes refuse
// a client's BLOB_ANNOUNCE (ERROR kUnreachable).
//
// Fetcher side (BlobFetcher, kademlia/blobs/blob_fetcher.h): Fetch(digest, size, publisher)
// finds holders (HolderLocator, kademlia/blobs/holder_locator.h: a BLOB_FIND lookup that ends
// once kListingRepliesEnough directory nodes listed holders, its own directory, and a
// FIND_NODE lookup for the publisher's node, whose id is the SHA-256 of the record's publisher
// key), then moves the blob from one holder at a time in kBlobChunkBytesMax chunks with
// `window` requests in flight, asking again for a chunk whose request is unanswered after the
// holder's retransmission timeout (four smoothed round trips, 20 ms to 1 s, doubled per
// attempt). The bytes are
// handed out only when their SHA-256 is the digest. A holder that answers with bytes that do
// not hash to the digest ("corrupt"), a wrong size or a short chunk ("truncated"), "not_held",
// or stops answering ("timeout") is left for the next one, and a corrupt holder is not asked
// for that digest again for bad_holder_memory. Holders that are not the publisher are asked
// first, in random order, so copies spread the load; the publisher's node is the last resort.
// Fetches of one digest share one transfer.
//
// Driven by the Node (a service, Node::AddService); no I/O of its own. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_BLOBS_BLOB_SERVICE_H_
#define SKILLNODE_KADEMLIA_BLOBS_BLOB_SERVICE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kademlia/blobs/holder_directory.h"
#include "kademlia/blobs/holder_locator.h"
#include "kademlia/blobs/host_ledger.h"
#include "kademlia/node.h"
#include "kademlia/request_handler.h"
#include "kademlia/rpc/rate_limiter.h"

namespace skillnode::kademlia::blobs {

struct BlobConfig {
  // Holders announced per blob: the r nodes closest to its key are told.
  size_t announce_replicas = 4;
  // How often an announcement is renewed; each lasts twice that at the directory.
  transport::Duration announce_interval = transport::Seconds(10 * 60);
  // A blob whose announcement reached no directory node is tried again this soon.
  transport::Duration announce_retry = transport::Seconds(10);
  // Blobs this node announces at most (its own and its cached ones).
  size_t announced_max = 4096;
  HolderLimits directory;
  // A client's blobs are hosted by this many of the directory nodes closest to each one's key.
  size_t host_replicas = 2;
  // What this node hosts for clients.
  HostLimits hosting;
  // Fetches running at once (each holds up to its blob's size in memory); more fail at once.
  size_t fetches_max = 8;
  // The largest blob a fetch accepts.
  uint64_t fetch_bytes_max = 64ull * 1024 * 1024;
  // Chunk requests in flight per transfer (64 KB of answers: well inside a socket's receive
  // buffer).
  size_t window = 64;
  // Requests for one chunk to one holder before that holder counts as gone ("timeout"). A
  // request unanswered after the retransmission timeout (four smoothed round trips, doubled
  // for each attempt, at most 1 s) is sent again: a dead holder is given up after about 7 s,
  // and at 10 % loss each way 12 failures in a row happen once in 400 million chunks.
  size_t chunk_attempts_max = 12;
  // How long a holder may keep answering "wait" (its rate limit, or verifying this node's
  // address first) with no chunk arriving before it counts as gone ("timeout"). A holder
  // verifies with a ping that fails after the 1 s RPC timeout when it or its answer is lost, and
  // then pings again: 5 s outlasts four lost pings in a row (at 10 % loss each way, once in
  // 800 transfers from a holder that must verify), and a holder that never serves is left soon.
  transport::Duration holder_wait_max = transport::Seconds(5);
  // A fetch gives up after this long in all, with every holder tried so far in its error.
  transport::Duration fetch_timeout = transport::Seconds(60);
  // A holder that served corrupt bytes is not asked for that digest again for this long;
  // at most bad_holders_max such (digest, holder) pairs are remembered.
  transport::Duration bad_holder_memory = transport::Seconds(10 * 60);
  size_t bad_holders_max = 1024;
  // Chunks served per second to one source IP, and the burst (1,000 bytes each); in total.
  double serve_chunks_per_ip = 4000;
  double serve_chunks_burst = 8000;
  double serve_chunks_global = 16000;
  size_t serve_tracked_ips_max = 1024;
};

// Where the holder side reads the blobs this node holds.
class BlobSource {
 public:
  virtual ~BlobSource() = default;
  // The size of the blob held under `digest`, or nullopt when it is not held.
  virtual std::optional<uint64_t> SizeOf(const wire::BlobDigest& digest) = 0;
  // Up to `length` bytes from `offset`; empty when the blob cannot be read (gone since).
  virtual std::vector<uint8_t> Read(const wire::BlobDigest& digest, uint64_t offset,
                                    size_t length) = 0;
};

// Where a BlobService reads the blobs this node holds, and keeps the copies it hosts.
class HeldBlobs : public BlobSource {
 public:
  // Keeps `bytes` (verified: their SHA-256 is `digest`), fetched to host them for a client, as
  // a copy this node holds; false when there is no room.
  virtual bool Keep(const wire::BlobDigest& digest, const std::string& bytes) = 0;
};

enum class HolderFailure : uint8_t { kCorrupt, kTruncated, kTimeout, kNotHeld, kCount };
std::string_view HolderFailureName(HolderFailure failure);  // "corrupt", "truncated", ...

struct HolderAttempt {
  NodeId id;
  transport::Endpoint endpoint;
  HolderFailure failure = HolderFailure::kTimeout;
  std::string detail;
};
// "holder 1a2b3c4d at 10.0.0.1:6881: timeout (...); holder ...": for errors and logs.
std::string DescribeAttempts(const std::vector<HolderAttempt>& attempts);

struct FetchOutcome {
  enum class Status {
    kOk,        // bytes verified
    kNoHolder,  // nobody was found holding the digest
    kFailed,    // every holder found failed (attempts says how), or the fetch timed out
    kBusy,      // fetches_max fetches were running
    kTooLarge,  // the size named is over fetch_bytes_max
  };
  Status status = Status::kFailed;
  std::shared_ptr<const std::string> bytes;  // kOk: the verified blob
  NodeId holder;                             // kOk: who served it
  std::vector<HolderAttempt> attempts;       // holders that failed, in the order tried
  std::string error;                         // not kOk: one line for people
  // When the fetch ended: the time of the event that ended it (kTimeZero at shutdown).
  transport::TimePoint finished = transport::kTimeZero;
};
using FetchCallback = std::function<void(const FetchOutcome&)>;

struct BlobStats {
  uint64_t chunks_served = 0;
  uint64_t bytes_served = 0;
  uint64_t not_held = 0;
  uint64_t serve_rate_limited = 0;
  uint64_t serve_unverified = 0;  // chunk requests from a peer not yet verified at its address
  uint64_t finds_served = 0;
  uint64_t announces_accepted = 0;
  uint64_t announces_refused = 0;
  uint64_t announces_sent = 0;  // announcements a directory node acknowledged
  // Hosting, as a client: BLOB_HOSTs a node accepted.
  uint64_t hosts_asked = 0;
  // Hosting, as a host: requests taken (new or renewed), refused (token, limits, size), and the
  // fetches of hosted bytes that ended kept or failed.
  uint64_t host_requests_accepted = 0;
  uint64_t host_requests_refused = 0;
  uint64_t hosted_fetched = 0;
  uint64_t hosted_failed = 0;
  uint64_t fetches_ok = 0;
  uint64_t fetches_failed = 0;
  uint64_t fetches_no_holder = 0;
  uint64_t fetches_refused = 0;  // kBusy and kTooLarge
  uint64_t chunks_fetched = 0;
  uint64_t chunk_retries = 0;
  std::array<uint64_t, static_cast<size_t>(HolderFailure::kCount)> holder_failures{};
};

class BlobFetcher;
class ChunkServer;

class BlobService : public RequestHandler {
 public:
  // Adds itself to `node` as a service; `held` must outlive it.
  BlobService(Node& node, HeldBlobs& held, const BlobConfig& config, transport::Rng& rng);
  ~BlobService() override;
  BlobService(const BlobService&) = delete;
  BlobService& operator=(const BlobService&) = delete;

  // Whose bytes a held blob is: this node's own skills' (hosted by others while it is a client)
  // or a copy of another node's (announced only while it is a full node).
  enum class Holding : uint8_t { kOwn, kCopy };
  // Starts announcing that this node holds `digest` (at once, then every announce_interval); as
  // a client, asking hosts to hold it (kOwn) or waiting (kCopy). A blob announced as both is own.
  void Announce(transport::TimePoint now, const wire::BlobDigest& digest, Holding holding);
  void Withdraw(const wire::BlobDigest& digest);
  // Fetches `size` bytes that hash to `digest`; `publisher` is the node that published the
  // record naming it (asked last). `done` is called exactly once, possibly before Fetch
  // returns when the fetch is refused at once (kBusy, kTooLarge).
  void Fetch(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
             std::optional<NodeId> publisher, FetchCallback done);
  // Ends every fetch (kFailed, "shutting down") and stops announcing.
  void Shutdown();

  const BlobStats& stats() const { return stats_; }
  const HolderDirectory& directory() const { return directory_; }
  const HostLedger& hosted() const { return hosted_; }
  size_t fetches_running() const;
  size_t announced() const { return announced_.size(); }

  // RequestHandler.
  std::optional<wire::Body> OnRequest(transport::TimePoint now, const transport::Endpoint& from,
                                      const wire::Message& request) override;
  void OnContactAdded(transport::TimePoint, const Contact&) override {}
  void OnContactEvicted(transport::TimePoint, const NodeId&) override {}
  void OnTimer(transport::TimePoint now) override;
  transport::TimePoint NextDeadline() const override;

 private:
  struct Announcing {
    // Waiting until `due` to announce, or looking up the directory nodes to tell.
    enum class Phase : uint8_t { kWaiting, kLooking };
    Phase phase = Phase::kWaiting;
    Holding holding = Holding::kCopy;
    transport::TimePoint due = transport::kTimeZero;
  };

  wire::Body ServeFind(transport::TimePoint now, const transport::Endpoint& from,
                       const wire::Message& request, const wire::BlobFindBody& find);
  wire::Body ServeAnnounce(transport::TimePoint now, const transport::Endpoint& from,
                           const wire::Message& request, const wire::BlobAnnounceBody& announce);
  wire::Body ServeHost(transport::TimePoint now, const transport::Endpoint& from,
                       const wire::Message& request, const wire::BlobHostBody& host);
  // Fetches what a client asked this node to host, from the client; keeps and announces it.
  void FetchHosted(transport::TimePoint now, const wire::BlobDigest& digest, uint64_t size,
                   const wire::WireContact& client);
  void StartAnnounce(transport::TimePoint now, const wire::BlobDigest& digest);
  // Tells the directory nodes `result` found that this node holds `digest` (a full node), or
  // asks host_replicas of them to host it (a client).
  size_t TellDirectory(const LookupResult& result, const wire::BlobDigest& digest, const Key& key);

  Node& node_;
  HeldBlobs& source_;
  BlobConfig config_;
  HolderDirectory directory_;
  HostLedger hosted_;
  BlobStats stats_;
  // Declared after stats_, which it counts into.
  std::unique_ptr<ChunkServer> chunks_;
  std::map<wire::BlobDigest, Announcing> announced_;
  std::map<Key, wire::BlobDigest> announced_keys_;  // BlobKey of each of announced_
  // Declared after directory_ and stats_, which it reads and counts into.
  std::unique_ptr<BlobFetcher> fetcher_;
  // The service works on a one-second tick (fetch deadlines, announcements due, the sweep of
  // the directory and of bad holders), so NextDeadline costs nothing.
  transport::TimePoint next_tick_ = transport::kTimeZero;
  transport::TimePoint next_sweep_ = transport::kTimeZero;
  // Client mode at the last tick: when it turns, every announcement is due at once.
  bool client_mode_ = false;
  bool shut_down_ = false;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_BLOB_SERVICE_H_
