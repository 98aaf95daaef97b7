// Many nodes in one process over the fake network: joining, and lookups checked against the
// truth computed by brute force.
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kademlia/node.h"
#include "support/fake_network.h"

namespace skillnode::kademlia {
namespace {

using testing::FakeNetwork;

// The `k` ids closest to `target` among live nodes other than `asker`, closest first.
std::vector<NodeId> TrueClosest(FakeNetwork& net, const Key& target, size_t asker, size_t k) {
  std::vector<NodeId> ids;
  for (size_t i = 0; i < net.size(); ++i) {
    if (i != asker && !net.silent(i)) ids.push_back(net.node(i).id());
  }
  std::sort(ids.begin(), ids.end(),
            [&](const NodeId& a, const NodeId& b) { return CloserTo(target, a, b); });
  if (ids.size() > k) ids.resize(k);
  return ids;
}

// Builds `count` nodes; node 0 starts alone and the others join through it, a few at a time.
void BuildNetwork(FakeNetwork& net, size_t count, const KademliaConfig& config) {
  net.AddNode(config);
  const transport::Endpoint seed = net.endpoint(0);
  size_t joined = 0;
  for (size_t i = 1; i < count; ++i) {
    net.AddNode(config).Join(net.now(), std::span(&seed, 1), [&](size_t) { ++joined; });
    if (i % 10 == 0) net.RunFor(transport::Seconds(1));
  }
  net.RunFor(transport::Seconds(30));
  REQUIRE(joined == count - 1);
  // Let bucket refreshes and the traffic of later joiners settle the tables.
  net.RunFor(transport::Seconds(20 * 60));
}

struct Outcome {
  size_t lookups = 0;
  size_t exact = 0;          // the result is the true k closest, in order
  size_t closest_found = 0;  // the result starts with the true closest live node
  size_t dead_returned = 0;  // silent nodes in results (must be none)
  double overlap = 0;        // mean fraction of the true k closest found
  double hops = 0;
  std::string misses;  // one line per inexact lookup, for failure messages
};

Outcome RunLookups(FakeNetwork& net, size_t lookups, size_t k, transport::Rng& rng) {
  Outcome outcome;
  std::vector<std::optional<LookupResult>> results(lookups);
  std::vector<size_t> askers(lookups);
  std::vector<Key> targets(lookups);
  for (size_t i = 0; i < lookups; ++i) {
    do {
      askers[i] = static_cast<size_t>(rng.Below(net.size()));
    } while (net.silent(askers[i]));
    rng.Fill(targets[i].mutable_bytes());
    REQUIRE(net.node(askers[i]).FindNode(net.now(), targets[i],
                                         [&results, i](const LookupResult& r) { results[i] = r; }));
  }
  net.RunFor(transport::Seconds(60));
  for (size_t i = 0; i < lookups; ++i) {
    REQUIRE(results[i].has_value());
    std::vector<NodeId> found;
    for (const Contact& c : results[i]->closest) found.push_back(c.id);
    const auto truth = TrueClosest(net, targets[i], askers[i], k);
    ++outcome.lookups;
    size_t common = 0;
    for (const NodeId& id : found) {
      common += std::find(truth.begin(), truth.end(), id) != truth.end();
      for (size_t h = 0; h < net.size(); ++h) {
        if (net.node(h).id() == id && net.silent(h)) ++outcome.dead_returned;
      }
    }
    outcome.overlap += static_cast<double>(common) / static_cast<double>(truth.size());
    if (!found.empty() && found.front() == truth.front()) ++outcome.closest_found;
    if (found == truth) {
      ++outcome.exact;
    } else {
      outcome.misses += "lookup " + std::to_string(i) + " from node " + std::to_string(askers[i]) +
                        ": " + std::to_string(common) + " of the true " +
                        std::to_string(truth.size()) + " found\n";
    }
    outcome.hops += results[i]->stats.hops;
  }
  outcome.hops /= static_cast<double>(lookups);
  outcome.overlap /= static_cast<double>(lookups);
  return outcome;
}

TEST_CASE("after joining, every lookup returns exactly the true k closest live nodes", "[sim]") {
  KademliaConfig config;
  FakeNetwork net(/*seed=*/1);
  BuildNetwork(net, 300, config);
  for (size_t i = 0; i < net.size(); ++i) {
    INFO("node " << i);
    CHECK(net.node(i).routing_table().size() >= config.routing.bucket_size);
  }
  transport::Rng rng(2);
  const Outcome outcome = RunLookups(net, 100, config.routing.bucket_size, rng);
  INFO(outcome.misses);
  CHECK(outcome.exact == outcome.lookups);
  CHECK(outcome.hops >= 1.0);
  CHECK(outcome.hops <= 4.0);
}

TEST_CASE("lookups still find the true k closest live nodes after 30% of nodes go silent",
          "[sim]") {
  KademliaConfig config;
  FakeNetwork net(/*seed=*/3);
  BuildNetwork(net, 300, config);
  transport::Rng rng(4);
  size_t silenced = 0;
  while (silenced < 90) {
    const auto victim = static_cast<size_t>(rng.Below(net.size()));
    if (net.silent(victim)) continue;
    net.SetSilent(victim, true);
    ++silenced;
  }
  // At once: every lookup completes around the silent nodes, returns only live ones and finds
  // the closest live node. The far end of the k set can be missed while the other nodes'
  // tables still list silent nodes in their answers.
  const Outcome at_once = RunLookups(net, 100, config.routing.bucket_size, rng);
  INFO(at_once.misses);
  CHECK(at_once.dead_returned == 0);
  CHECK(at_once.closest_found == at_once.lookups);
  CHECK(at_once.overlap >= 0.9);
  // Once the tables have noticed (bucket refreshes and lookups time out on the silent nodes
  // and evict them), lookups are exact again.
  net.RunFor(transport::Seconds(60 * 60));
  const Outcome healed = RunLookups(net, 100, config.routing.bucket_size, rng);
  INFO(healed.misses);
  CHECK(healed.exact == healed.lookups);
}

TEST_CASE("under loss, asking a silent closest contact again keeps lookups finding it", "[sim]") {
  // The same network (same seed) with and without lookup_slow_retries, then 5 % loss: without
  // retries a lookup whose one exchange with the closest node loses a datagram misses it.
  auto run = [](size_t retries) {
    KademliaConfig config;
    config.routing.bucket_size = 8;
    config.alpha = 3;
    config.lookup_slow_retries = retries;
    FakeNetwork net(/*seed=*/7);
    BuildNetwork(net, 150, config);
    net.SetLoss(0.05);
    transport::Rng rng(8);
    return RunLookups(net, 300, config.routing.bucket_size, rng);
  };
  const Outcome without = run(0);
  const Outcome with = run(1);
  INFO("closest found without retries " << without.closest_found << ", with " << with.closest_found
                                        << " of 300");
  CHECK(with.closest_found >= 297);
  CHECK(without.closest_found + 10 <= with.closest_found);
}

TEST_CASE("lookups over disjoint paths find the same closest nodes", "[sim]") {
  KademliaConfig config;
  config.routing.bucket_size = 8;
  config.disjoint_paths = 4;
  config.alpha = 1;
  FakeNetwork net(/*seed=*/5);
  BuildNetwork(net, 200, config);
  transport::Rng rng(6);
  const Outcome outcome = RunLookups(net, 50, config.routing.bucket_size, rng);
  INFO(outcome.misses);
  CHECK(outcome.exact == outcome.lookups);
}

TEST_CASE("the same seed gives the same network and the same lookups", "[sim]") {
  auto run = [](uint64_t seed) {
    KademliaConfig config;
    config.routing.bucket_size = 8;
    FakeNetwork net(seed);
    BuildNetwork(net, 60, config);
    transport::Rng rng(seed);
    RunLookups(net, 20, 8, rng);
    return std::make_pair(net.delivered(), net.node(7).routing_table().Export().size());
  };
  CHECK(run(11) == run(11));
}

}  // namespace
}  // namespace skillnode::kademlia
