// HolderNet: a seeded FakeNetwork of 24 nodes, each running a BlobService over blobs held in
// memory (every node is a holder and a directory node), for the tests of BlobService's parts
// that run on one node of it: blob_fetcher_test.cpp (a BlobFetcher on node 17) and
// holder_locator_test.cpp (a HolderLocator on node 17). The part under test is added by the
// test's own fixture after the network has settled (30 simulated seconds). chunk_server_test.cpp
// uses MemorySource and DigestOf alone: its three nodes must differ from HolderNet's (a
// ChunkServer with the test's BlobConfig instead of a BlobService, a node that never talks to
// the server).
#ifndef SKILLNODE_TESTS_KADEMLIA_BLOBS_HOLDER_FIXTURE_H_
#define SKILLNODE_TESTS_KADEMLIA_BLOBS_HOLDER_FIXTURE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kademlia/blobs/blob_service.h"
#include "kademlia/blobs/holder_directory.h"
#include "kademlia/wire/encoding.h"
#include "support/fake_network.h"

namespace skillnode::kademlia::blobs {

inline wire::BlobDigest DigestOf(const std::string& bytes) {
  wire::BlobDigest out{};
  wire::Sha256Into(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), out);
  return out;
}

// A node's blobs in memory; `corrupt` flips one byte of every chunk it reads.
class MemorySource : public HeldBlobs {
 public:
  std::map<wire::BlobDigest, std::string> blobs;
  bool corrupt = false;

  std::optional<uint64_t> SizeOf(const wire::BlobDigest& digest) override {
    auto found = blobs.find(digest);
    if (found == blobs.end()) return std::nullopt;
    return found->second.size();
  }
  std::vector<uint8_t> Read(const wire::BlobDigest& digest, uint64_t offset,
                            size_t length) override {
    const std::string range = blobs.at(digest).substr(offset, length);
    std::vector<uint8_t> out(range.begin(), range.end());
    if (corrupt && !out.empty()) out[0] ^= 0x20;
    return out;
  }
  bool Keep(const wire::BlobDigest& digest, const std::string& bytes) override {
    blobs[digest] = bytes;
    return true;
  }
};

struct HolderNet {
  // The node whose fetcher or locator the tests drive.
  static constexpr size_t kClient = 17;
  static constexpr size_t kNodes = 24;

  testing::FakeNetwork net;
  std::vector<std::unique_ptr<MemorySource>> sources;
  std::vector<std::unique_ptr<BlobService>> services;
  HolderDirectory own{HolderLimits{}};  // the client's own directory (empty)

  // `latency`: each datagram's one-way delay (FakeNetwork's).
  explicit HolderNet(uint64_t seed, transport::Duration latency = transport::Millis(10))
      : net(seed, latency) {
    KademliaConfig kad;
    kad.routing.bucket_size = 8;
    for (size_t i = 0; i < kNodes; ++i) {
      Node& node = net.AddNode(kad);
      sources.push_back(std::make_unique<MemorySource>());
      services.push_back(
          std::make_unique<BlobService>(node, *sources.back(), BlobConfig{}, net.rng()));
      if (i > 0) {
        const transport::Endpoint seed_endpoint = net.endpoint(0);
        node.Join(net.now(), std::span(&seed_endpoint, 1), nullptr);
      }
      if (i % 10 == 9) net.RunFor(transport::Seconds(1));
    }
    net.RunFor(transport::Seconds(30));
  }

  // Node `i` holds `bytes` and announces them.
  void Hold(size_t i, const std::string& bytes) {
    sources[i]->blobs[DigestOf(bytes)] = bytes;
    services[i]->Announce(net.now(), DigestOf(bytes), BlobService::Holding::kOwn);
  }
};

}  // namespace skillnode::kademlia::blobs

#endif  // SKILLNODE_TESTS_KADEMLIA_BLOBS_HOLDER_FIXTURE_H_
