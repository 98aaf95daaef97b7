// ChunkServer: the holder side of BLOB_GET. Answers a chunk request with BLOB_DATA from a
// BlobSource, to peers verified at their address only (a chunk is eight times its request: no
// reflection off forged addresses), metered per source IP in chunks per second (the node's
// request limiter leaves BLOB_GET to the services that answer it). Both refusals are ERROR
// kRateLimited, and a fetcher asks again 100 ms on; a digest the source does not hold is
// kNotHeld.
//
// BlobService serves the node's blobs (SKILL.md files, archives) through one; the skill store
// serves the encodings of records too large for a datagram through another
// (kademlia/store/record_outbox.h). Counts into the BlobStats it is given. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_BLOBS_CHUNK_SERVER_H_
#define SKILLNODE_KADEMLIA_BLOBS_CHUNK_SERVER_H_

#include "kademlia/blobs/blob_service.h"
#include "kademlia/node.h"
#include "kademlia/rpc/rate_limiter.h"

namespace skillnode::kademlia::blobs {

class ChunkServer {
 public:
  // `node`, `source` and `stats` must outlive the server; the limits are `config`'s serve_*.
  ChunkServer(Node& node, BlobSource& source, const BlobConfig& config, BlobStats& stats);
  ChunkServer(const ChunkServer&) = delete;
  ChunkServer& operator=(const ChunkServer&) = delete;

  // The answer to `request`'s BLOB_GET `get` from `from`: BLOB_DATA or ERROR.
  wire::Body Serve(transport::TimePoint now, const transport::Endpoint& from,
                   const wire::Message& request, const wire::BlobGetBody& get);

 private:
  Node& node_;
  BlobSource& source_;
  BlobStats& stats_;
  rpc::RequestRateLimiter limiter_;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_CHUNK_SERVER_H_
