// The state of one fetch (BlobService::Fetching), private to blob_service.cpp and
// blob_fetch.cpp.
#ifndef SKILLNODE_KADEMLIA_BLOBS_BLOB_FETCHING_H_
#define SKILLNODE_KADEMLIA_BLOBS_BLOB_FETCHING_H_

#include <deque>
#include <string>
#include <vector>

#include "kademlia/blobs/blob_service.h"

namespace skillnode::kademlia::blobs {

struct BlobService::Fetching {
  enum class Chunk : uint8_t { kWanted, kInFlight, kHave };

  uint64_t size = 0;
  std::optional<NodeId> publisher;
  std::vector<FetchCallback> waiters;
  transport::TimePoint deadline = transport::kTimeNever;

  // Locating: lookups still running, and the holders they found.
  int lookups_running = 0;
  std::vector<wire::WireContact> found;
  size_t listing_replies = 0;  // BLOB_HOLDERS replies that named a holder
  std::optional<wire::WireContact> publisher_contact;
  // Holders to try, in order, and the next one's index.
  std::vector<wire::WireContact> candidates;
  size_t next_candidate = 0;
  std::vector<HolderAttempt> attempts;

  // The transfer from the current holder; a new holder starts a new generation, and replies
  // to an older one's requests are ignored.
  std::optional<wire::WireContact> holder;
  uint64_t generation = 0;
  std::string buffer;
  std::vector<Chunk> chunks;
  std::vector<uint8_t> sent;  // requests sent per chunk to this holder (the attempt number)
  // The attempt that holds a place in the window per chunk (0: none), and when it was sent. An
  // attempt unanswered after `rto` gives up its place and the chunk is asked again; its reply
  // still counts if it comes (as a lookup treats a slow contact).
  std::vector<uint8_t> counted;
  std::vector<transport::TimePoint> sent_at;
  std::vector<size_t> flying;  // chunks with a counted attempt: at most `window`
  std::deque<size_t> wanted;   // chunks to request, ascending, so retries go first
  // Smoothed round-trip time of this holder's chunks, and the retransmission timeout from it.
  transport::Duration srtt{};
  transport::Duration rto{};
  size_t in_flight = 0;
  size_t have = 0;
  size_t throttled = 0;  // "wait" answers since the last chunk arrived
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_BLOB_FETCHING_H_
