// A seeded many-node network with the skill store on every node, for the [sim] tests of SkillDht,
// and the steps those tests share: which nodes hold a key, a record published while the node
// closest to its key is away, a holder evicted by the others, the gets of every node or one.
#ifndef SKILLNODE_TESTS_SUPPORT_DHT_NETWORK_H_
#define SKILLNODE_TESTS_SUPPORT_DHT_NETWORK_H_

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "kademlia/store/skill_dht.h"
#include "support/fake_network.h"

namespace skillnode::testing {

// A network of `count` nodes with the skill store, joined through node 0, their wall clocks
// `wall_clock`.
inline void BuildDhtNetwork(
    FakeNetwork& net, size_t count, const kademlia::store::DhtConfig& dht_config,
    const kademlia::store::WallClock& wall_clock = kademlia::store::SimulatedWallClockMs) {
  kademlia::KademliaConfig config;
  config.routing.bucket_size = 8;
  net.AddDhtNode(config, dht_config, wall_clock);
  const transport::Endpoint seed = net.endpoint(0);
  for (size_t i = 1; i < count; ++i) {
    net.AddDhtNode(config, dht_config, wall_clock);
    net.node(i).Join(net.now(), std::span(&seed, 1), nullptr);
    if (i % 10 == 0) net.RunFor(transport::Seconds(1));
  }
  net.RunFor(transport::Seconds(60));
}

// Hosts (not silent) holding a record under `key`.
inline std::vector<size_t> Holders(FakeNetwork& net, const kademlia::Key& key) {
  std::vector<size_t> holders;
  for (size_t i = 0; i < net.size(); ++i) {
    if (!net.silent(i) && !net.dht(i).store().Get(key).empty()) holders.push_back(i);
  }
  return holders;
}

// A record node 0 published while the node closest to its key (node 0 aside) was silent: that
// node, back now, and the holders of the key.
struct PublishedWithoutClosest {
  size_t closest = 0;
  std::vector<size_t> holders;
};

// Node 0 publishes `record` under `key` while the node closest to `key` is silent, for 30 s.
inline PublishedWithoutClosest PublishWithoutClosest(FakeNetwork& net, const kademlia::Key& key,
                                                     const kademlia::store::SignedRecord& record) {
  size_t closest = 1;
  for (size_t i = 2; i < net.size(); ++i) {
    if (kademlia::CloserTo(key, net.node(i).id(), net.node(closest).id())) closest = i;
  }
  net.SetSilent(closest, true);
  net.dht(0).Publish(net.now(), record, nullptr);
  net.RunFor(transport::Seconds(30));
  net.SetSilent(closest, false);
  return PublishedWithoutClosest{closest, Holders(net, key)};
}

// The first node after node 0 that is neither `closest` nor one of `holders`.
inline size_t FirstNonHolder(const PublishedWithoutClosest& published) {
  const std::vector<size_t>& holders = published.holders;
  size_t node = 1;
  while (node == published.closest ||
         std::find(holders.begin(), holders.end(), node) != holders.end()) {
    ++node;
  }
  return node;
}

// Every holder but `gone` (silent) pings it stale_failures_max (3) times, 2 s apart, so that
// each evicts it from its routing table.
inline void EvictFromHolders(FakeNetwork& net, const std::vector<size_t>& holders, size_t gone) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    for (size_t holder : holders) {
      if (holder == gone) continue;
      net.node(holder).Request(net.now(), net.endpoint(gone), net.node(gone).id(),
                               kademlia::wire::PingBody{}, nullptr);
    }
    net.RunFor(transport::Seconds(2));
  }
}

// Every live (not silent) host's get of `key`, given 30 s to finish: by host, nullopt for a
// silent host or a get that did not finish.
inline std::vector<std::optional<kademlia::store::GetResult>> GetFromEveryLiveNode(
    FakeNetwork& net, const kademlia::Key& key) {
  // Shared with the callbacks, which may outlive this call when a get takes longer.
  auto results =
      std::make_shared<std::vector<std::optional<kademlia::store::GetResult>>>(net.size());
  for (size_t i = 0; i < net.size(); ++i) {
    if (net.silent(i)) continue;
    REQUIRE(
        net.dht(i).Get(net.now(), key, kademlia::store::GetOptions{},
                       [results, i](const kademlia::store::GetResult& r) { (*results)[i] = r; }));
  }
  net.RunFor(transport::Seconds(30));
  return *results;
}

// Node `asker`'s get of `key`, given 10 s to finish (nullopt if it did not).
inline std::optional<kademlia::store::GetResult> GetOnce(FakeNetwork& net, size_t asker,
                                                         const kademlia::Key& key) {
  // Shared with the callback, which may outlive this call when the get takes longer.
  auto result = std::make_shared<std::optional<kademlia::store::GetResult>>();
  REQUIRE(net.dht(asker).Get(net.now(), key, kademlia::store::GetOptions{},
                             [result](const kademlia::store::GetResult& r) { *result = r; }));
  net.RunFor(transport::Seconds(10));
  return *result;
}

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_DHT_NETWORK_H_
