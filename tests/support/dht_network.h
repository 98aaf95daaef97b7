// A seeded many-node network with the skill store on every node, for the [sim] tests of SkillDht.
#ifndef SKILLNODE_TESTS_SUPPORT_DHT_NETWORK_H_
#define SKILLNODE_TESTS_SUPPORT_DHT_NETWORK_H_

#include <span>

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

}  // namespace skillnode::testing

#endif  // SKILLNODE_TESTS_SUPPORT_DHT_NETWORK_H_
