// BlobNetwork: the SKILL.md files and folder archives this node can hand out, wherever they
// were published (docs/protocol.md "Blobs"):
//
//   <dataDir>/blobs/<sha256>         bytes of skills registered here ("local")
//   <dataDir>/blobs/cache/<sha256>   bytes fetched from other nodes ("cache"), at most
//                                    node.skills.cacheBytes, least recently used dropped first
//
// Get answers from the local store, then the cache, then the network: the blob service
// (kademlia/blobs) finds holders through the DHT and moves the bytes over the DHT's UDP
// socket, verified against the digest the signed record names before anything is kept or
// served. Every blob held, local or cached, is announced, so a fetcher finds every copy and
// the publisher's node is not the only source. The holder side reads chunks from both stores.
// While the node is in client mode (strangers cannot reach it) its own blobs are hosted by
// reachable nodes instead, and it hosts those of clients in its cache in turn
// (docs/protocol.md "Hosted blobs").
//
// Metrics: skillnode_blob_* (fetches by outcome, holder failures by reason, chunks served and
// fetched, the directory's entries, the stores' bytes). Runs on the loop thread.
#ifndef SKILLNODE_NODE_BLOBS_BLOB_NETWORK_H_
#define SKILLNODE_NODE_BLOBS_BLOB_NETWORK_H_

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kademlia/blobs/blob_service.h"
#include "node/blobs/blob_reads.h"
#include "node/blobs/blob_store.h"
#include "node/daemon.h"

namespace skillnode::node::blobs {

struct BlobAnswer {
  enum class Source { kLocal, kCache, kNetwork };
  std::shared_ptr<const std::string> bytes;  // null when the blob could not be had
  Source source = Source::kLocal;
  std::optional<kademlia::NodeId> holder;  // kNetwork: the node that served the bytes
  kademlia::blobs::FetchOutcome failure;   // when bytes is null: why
};
std::string_view SourceName(BlobAnswer::Source source);  // "local", "cache", "network"

class BlobNetwork : public kademlia::blobs::HeldBlobs {
 public:
  // Opens both stores, attaches the blob service to the daemon's node and adds its metrics
  // and shutdown step. Fails when a store cannot be opened.
  [[nodiscard]] static transport::Result<std::unique_ptr<BlobNetwork>> Open(Daemon& daemon);
  ~BlobNetwork() override;
  BlobNetwork(const BlobNetwork&) = delete;
  BlobNetwork& operator=(const BlobNetwork&) = delete;

  // The store of skills registered here; call Published after a Put that a record now names.
  BlobStore& local() { return local_; }
  void Published(const Digest& digest);

  // The `size` bytes whose SHA-256 is `digest`, named by a record of `publisher` (the
  // publisher's key). `done` runs once, on the loop thread, maybe before Get returns. A held
  // copy is read and verified off the loop thread (BlobReads); when the reads are busy the
  // answer is kBusy.
  void Get(const Digest& digest, uint64_t size, const kademlia::PublicKey& publisher,
           std::function<void(const BlobAnswer&)> done);

  nlohmann::json Info() const;
  void WriteMetrics(http::PrometheusWriter& out) const;

  // BlobSource: what other nodes may fetch from this one.
  std::optional<uint64_t> SizeOf(const kademlia::wire::BlobDigest& digest) override;
  std::vector<uint8_t> Read(const kademlia::wire::BlobDigest& digest, uint64_t offset,
                            size_t length) override;
  // HeldBlobs: a blob fetched to host it for a node in client mode goes to the cache.
  bool Keep(const kademlia::wire::BlobDigest& digest, const std::string& bytes) override;

 private:
  BlobNetwork(Daemon& daemon, BlobStore local, BlobStore cache);
  // Get from the stores at and after `from` (local, then cache), then from the network.
  void ReadHeld(const Digest& digest, uint64_t size, const kademlia::PublicKey& publisher,
                std::function<void(const BlobAnswer&)> done, BlobAnswer::Source from);

  Daemon& daemon_;
  BlobStore local_;
  BlobStore cache_;
  BlobReads reads_;
  std::unique_ptr<kademlia::blobs::BlobService> service_;
  uint64_t cache_refused_ = 0;  // verified fetches the cache could not keep
};

}  // namespace skillnode::node::blobs

#endif  // SKILLNODE_NODE_BLOBS_BLOB_NETWORK_H_
