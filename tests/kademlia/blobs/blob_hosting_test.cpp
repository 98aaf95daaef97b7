// Hosted blobs (docs/protocol.md "Hosted blobs"): a node in client mode behind a NAT that drops
// every datagram it did not ask for has its own blobs fetched and announced by reachable nodes,
// so another node fetches them without ever reaching it; it announces nothing itself (and a
// directory refuses it if it tries), and announces its blobs itself once its NAT opens.
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "holder_fixture.h"
#include "kademlia/blobs/blob_service.h"
#include "support/fake_network.h"

namespace skillnode::kademlia::blobs {
namespace {

using testing::FakeNetwork;

// Text of `size` bytes that differs from position to position.
std::string Blob(size_t size, char seed) {
  std::string out(size, ' ');
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<char>(seed + (i * 7 + i / 13) % 26);
  return out;
}

// 16 nodes, every one with a BlobService over blobs in memory; node kClient sits behind a NAT
// and is a client while its reachability verdict says nat (found by its own probes, about a
// minute after the start).
struct ClientNet {
  static constexpr size_t kClient = 5;
  static constexpr size_t kNodes = 16;

  FakeNetwork net{/*seed=*/29};
  std::vector<std::unique_ptr<MemorySource>> sources;
  std::vector<std::unique_ptr<BlobService>> services;

  ClientNet() {
    KademliaConfig kad;
    kad.routing.bucket_size = 8;
    KademliaConfig client = kad;
    client.reach_probes = true;
    client.client_mode = ClientMode::kWhenNat;
    for (size_t i = 0; i < kNodes; ++i) {
      Node& node = net.AddNode(i == kClient ? client : kad);
      const transport::Endpoint seed = net.endpoint(0);
      if (i == kClient) net.SetBehindNat(i, true);
      sources.push_back(std::make_unique<MemorySource>());
      services.push_back(
          std::make_unique<BlobService>(node, *sources.back(), BlobConfig{}, net.rng()));
      if (i > 0) node.Join(net.now(), std::span(&seed, 1), nullptr);
    }
    net.RunFor(transport::Seconds(90));
  }

  // The nodes other than `except` that hold `bytes`.
  std::vector<size_t> Holding(const std::string& bytes, size_t except) const {
    std::vector<size_t> out;
    for (size_t i = 0; i < kNodes; ++i) {
      if (i != except && sources[i]->blobs.contains(DigestOf(bytes))) out.push_back(i);
    }
    return out;
  }

  // Whether any directory node lists node `who` as a holder of `bytes`.
  bool Listed(const std::string& bytes, size_t who) {
    for (const auto& service : services) {
      for (const auto& holder : service->directory().Holders(net.now(), BlobKey(DigestOf(bytes)))) {
        if (holder.id == net.node(who).id()) return true;
      }
    }
    return false;
  }

  FetchOutcome Fetch(size_t i, const std::string& bytes, size_t publisher) {
    std::optional<FetchOutcome> outcome;
    services[i]->Fetch(net.now(), DigestOf(bytes), bytes.size(), net.node(publisher).id(),
                       [&outcome](const FetchOutcome& o) { outcome = o; });
    net.RunFor(transport::Seconds(60));
    REQUIRE(outcome.has_value());
    return *outcome;
  }
};

TEST_CASE(
    "a client's own blob is hosted by reachable nodes and fetched from them, never from it; its "
    "copies wait, and once its NAT opens it announces both itself",
    "[unit]") {
  ClientNet lab;
  const size_t client = ClientNet::kClient;
  REQUIRE(lab.net.node(client).client_mode());
  const std::string own = Blob(40 * 1000 + 7, 'a');
  const std::string copy = Blob(3000, 'k');
  lab.sources[client]->blobs[DigestOf(own)] = own;
  lab.sources[client]->blobs[DigestOf(copy)] = copy;
  lab.services[client]->Announce(lab.net.now(), DigestOf(own), BlobService::Holding::kOwn);
  lab.services[client]->Announce(lab.net.now(), DigestOf(copy), BlobService::Holding::kCopy);
  lab.net.RunFor(transport::Seconds(20));

  // host_replicas reachable nodes fetched the client's own blob, each announces it.
  const std::vector<size_t> hosts = lab.Holding(own, client);
  CHECK(hosts.size() == BlobConfig{}.host_replicas);
  CHECK(lab.services[client]->stats().hosts_asked == BlobConfig{}.host_replicas);
  for (size_t host : hosts) {
    INFO("host " << host);
    CHECK(lab.services[host]->stats().hosted_fetched == 1);
    CHECK(lab.services[host]->hosted().entries() == 1);
    CHECK(lab.Listed(own, host));
  }
  // Nobody lists the client, nor its copy.
  CHECK_FALSE(lab.Listed(own, client));
  CHECK_FALSE(lab.Listed(copy, client));
  CHECK(lab.Holding(copy, client).empty());

  // Another node fetches the bytes from a host, at the first try: the client is not among
  // the holders it finds, and its publisher lookup does not find the client either.
  const FetchOutcome got = lab.Fetch(12, own, client);
  INFO(got.error);
  REQUIRE(got.status == FetchOutcome::Status::kOk);
  CHECK(*got.bytes == own);
  CHECK(got.holder != lab.net.node(client).id());
  CHECK(got.attempts.empty());

  // A client's BLOB_ANNOUNCE is refused: a directory would list a holder nobody reaches.
  // (The reply is valid only during the callback: its code is taken there.)
  std::optional<uint16_t> refused;
  lab.net.node(client).Request(
      lab.net.now(), lab.net.endpoint(0), lab.net.node(0).id(),
      wire::BlobAnnounceBody{BlobKey(DigestOf(copy)), {1}, 60},
      [&refused](const rpc::RpcResult& result) {
        const auto* error =
            result.reply == nullptr ? nullptr : std::get_if<wire::ErrorBody>(&result.reply->body);
        refused = error == nullptr ? 0 : error->code;
      });
  lab.net.RunFor(transport::Seconds(2));
  REQUIRE(refused.has_value());
  CHECK(*refused == static_cast<uint16_t>(wire::ErrorReplyCode::kUnreachable));

  // Its NAT opens: its verdict turns public, it is a full node, and it announces both blobs.
  // (A decided verdict is probed every 10 minutes and needs outcomes from two helpers to turn.)
  lab.net.SetBehindNat(client, false);
  lab.net.RunFor(transport::Seconds(35 * 60));
  REQUIRE_FALSE(lab.net.node(client).client_mode());
  CHECK(lab.Listed(own, client));
  CHECK(lab.Listed(copy, client));
}

TEST_CASE("a host fetches nothing for a client past the bytes allowed for its address", "[unit]") {
  ClientNet lab;
  const size_t client = ClientNet::kClient;
  REQUIRE(lab.net.node(client).client_mode());
  // Every other node allows one address 10,000 bytes: a 12,000-byte blob is hosted by nobody.
  for (size_t i = 0; i < ClientNet::kNodes; ++i) {
    if (i == client) continue;
    // A fresh service with the small allowance replaces each node's own.
    BlobConfig small;
    small.hosting.bytes_per_address = 10000;
    lab.services[i] =
        std::make_unique<BlobService>(lab.net.node(i), *lab.sources[i], small, lab.net.rng());
  }
  const std::string big = Blob(12000, 'q');
  const std::string fits = Blob(9000, 'r');
  for (const std::string* bytes : {&big, &fits}) {
    lab.sources[client]->blobs[DigestOf(*bytes)] = *bytes;
    lab.services[client]->Announce(lab.net.now(), DigestOf(*bytes), BlobService::Holding::kOwn);
  }
  lab.net.RunFor(transport::Seconds(20));
  CHECK(lab.Holding(big, client).empty());
  CHECK(lab.Holding(fits, client).size() == BlobConfig{}.host_replicas);
  uint64_t refused = 0;
  for (const auto& service : lab.services) refused += service->stats().host_requests_refused;
  CHECK(refused >= BlobConfig{}.host_replicas);
  CHECK(lab.services[client]->stats().hosts_asked == BlobConfig{}.host_replicas);
}

}  // namespace
}  // namespace skillnode::kademlia::blobs
