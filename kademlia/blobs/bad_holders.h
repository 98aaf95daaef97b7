// BadHolders: the (digest, holder) pairs a fetcher has caught serving bytes that do not hash to
// the digest, each remembered for a while so that the holder is not asked for that digest again
// (BlobFetcher, kademlia/blobs/blob_fetcher.h). At most `max` pairs are kept: past that, the
// expired go first, then the smallest pair. Pure: the caller passes the time. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_BLOBS_BAD_HOLDERS_H_
#define SKILLNODE_KADEMLIA_BLOBS_BAD_HOLDERS_H_

#include <cstddef>
#include <map>
#include <utility>

#include "kademlia/key.h"
#include "kademlia/wire/wire.h"
#include "transport/clock.h"

namespace skillnode::kademlia::blobs {

class BadHolders {
 public:
  // `max` > 0 pairs, each kept for `memory`.
  BadHolders(size_t max, transport::Duration memory);

  // Whether `holder` served corrupt bytes of `digest` less than `memory` before `now`.
  bool Has(transport::TimePoint now, const wire::BlobDigest& digest, const NodeId& holder) const;
  // Remembers that `holder` served corrupt bytes of `digest` at `now`.
  void Note(transport::TimePoint now, const wire::BlobDigest& digest, const NodeId& holder);
  // Forgets the pairs whose memory ended.
  void Sweep(transport::TimePoint now);

  size_t size() const { return until_.size(); }

 private:
  size_t max_;
  transport::Duration memory_;
  std::map<std::pair<wire::BlobDigest, NodeId>, transport::TimePoint> until_;
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_KADEMLIA_BLOBS_BAD_HOLDERS_H_
