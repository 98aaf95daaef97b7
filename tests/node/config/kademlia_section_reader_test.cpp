// KademliaSectionReader: node.kademlia's settings land in KademliaConfig, an absent key keeps
// its value, and every problem (range, type, unknown key, a bad clientMode) is reported at its
// path, sub-sections included, without stopping at the first.
#include "node/config/kademlia_section_reader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::node::config {
namespace {

using Catch::Contains;

struct Read {
  kademlia::KademliaConfig kad;
  std::vector<std::string> errors;
};

Read ReadSection(const std::string& yaml, kademlia::KademliaConfig base = {}) {
  auto tree = ParseYaml(yaml);
  REQUIRE(tree);
  Read out{std::move(base), {}};
  KademliaSectionReader(ConfigSection(&*tree, "node.kademlia", out.errors)).Read(out.kad);
  return out;
}

TEST_CASE("node.kademlia sets routing, lookup, timeout, departed and relay settings", "[unit]") {
  const Read read = ReadSection(
      "k: 12\nalpha: 4\ndisjointPaths: 2\nlookupSlowRetries: 0\nlookupFinalRound: "
      "false\nlookupExtraSlots: 1\n"
      "proximityRatio: 0.25\nrpcTimeout: 800\nrpcTimeoutMin: 40\npeerSoftDeadlines: false\n"
      "staleFailuresMax: 6\nbucketRefreshInterval: 60000\npingOldestAfter: 0\n"
      "departedMax: 10\ndepartedProbeAfter: 500\ndepartedKeep: 5000\n"
      "departedProbeSpacing: 20\nleaveNoticesMax: 9\nreachProbes: true\nclientMode: auto\n"
      "relay: {clientsMax: 3, messagesPerSecond: 5, totalPerSecond: 50, relays: 1, "
      "keepInterval: 10000, givenUpMax: 0}\n"
      "punch: {connectsMax: 4, answersPerSecond: 2.5, directPings: 3}\n"
      "rateLimit: {perIp: 7, perIpBurst: 14, global: 70, globalBurst: 140}\n");
  CHECK(read.errors.empty());
  const kademlia::KademliaConfig& kad = read.kad;
  CHECK(kad.routing.bucket_size == 12);
  CHECK(kad.alpha == 4);
  CHECK(kad.disjoint_paths == 2);
  CHECK(kad.lookup_slow_retries == 0);
  CHECK_FALSE(kad.lookup_final_round);
  CHECK(kad.lookup_extra_slots == 1);
  CHECK(kad.routing.proximity_ratio == 0.25);
  CHECK(kad.rpc_timeout == transport::Millis(800));
  CHECK(kad.rpc_timeout_min == transport::Millis(40));
  CHECK_FALSE(kad.peer_soft_deadlines);
  CHECK(kad.routing.stale_failures_max == 6);
  CHECK(kad.leave_notices_max == 9);
  CHECK(kad.routing.bucket_refresh_interval == transport::Seconds(60));
  CHECK(kad.routing.ping_oldest_after == transport::Millis(0));
  CHECK(kad.routing.departed_max == 10);
  CHECK(kad.routing.departed_probe_after == transport::Millis(500));
  CHECK(kad.routing.departed_keep == transport::Seconds(5));
  CHECK(kad.routing.departed_probe_spacing == transport::Millis(20));
  CHECK(kad.reach_probes);
  CHECK(kad.client_mode == kademlia::ClientMode::kWhenNat);
  CHECK(kad.relay.limits.clients_max == 3);
  CHECK(kad.relay.limits.messages_per_second == 5);
  CHECK(kad.relay.limits.total_per_second == 50);
  CHECK(kad.relay.relays_max == 1);
  CHECK(kad.relay.keep_interval == transport::Seconds(10));
  CHECK(kad.relay.given_up_max == 0);
  CHECK(kad.punch.connects_max == 4);
  CHECK(kad.punch.answers_per_second == 2.5);
  CHECK(kad.punch.direct_pings == 3);
  CHECK(kad.rate_limit.per_ip_rate == 7);
  CHECK(kad.rate_limit.per_ip_burst == 14);
  CHECK(kad.rate_limit.global_rate == 70);
  CHECK(kad.rate_limit.global_burst == 140);
}

TEST_CASE("an absent node.kademlia key keeps the value it had", "[unit]") {
  kademlia::KademliaConfig base;
  base.alpha = 7;
  base.client_mode = kademlia::ClientMode::kOn;
  base.relay.relays_max = 3;
  const Read read = ReadSection("k: 9\n", base);
  CHECK(read.errors.empty());
  CHECK(read.kad.routing.bucket_size == 9);
  CHECK(read.kad.alpha == 7);
  CHECK(read.kad.client_mode == kademlia::ClientMode::kOn);
  CHECK(read.kad.relay.relays_max == 3);
}

TEST_CASE("clientMode takes on, off and auto", "[unit]") {
  CHECK(ReadSection("clientMode: on\n").kad.client_mode == kademlia::ClientMode::kOn);
  CHECK(ReadSection("clientMode: off\n",
                    [] {
                      kademlia::KademliaConfig on;
                      on.client_mode = kademlia::ClientMode::kOn;
                      return on;
                    }())
            .kad.client_mode == kademlia::ClientMode::kOff);
  CHECK(ReadSection("clientMode: auto\n").kad.client_mode == kademlia::ClientMode::kWhenNat);
}

TEST_CASE("every bad node.kademlia value is named at its path, sub-sections included", "[unit]") {
  const Read read = ReadSection(
      "k: 33\nclientMode: sometimes\nrpcTimeout: 5\n"
      "relay: {relays: 5, keepInterval: 60000, hops: 2}\n"
      "rateLimit: {perIp: fast}\nbucketSize: 8\n");
  std::string all;
  for (const std::string& error : read.errors) all += error + "\n";
  CHECK(read.errors.size() == 8);
  CHECK_THAT(all, Contains("node.kademlia.k: must be between 1 and 32, got 33"));
  CHECK_THAT(all, Contains("node.kademlia.clientMode: expected auto, on or off, got 'sometimes'"));
  CHECK_THAT(all, Contains("node.kademlia.rpcTimeout: must be between 10 and 60000"));
  CHECK_THAT(all, Contains("node.kademlia.relay.relays: must be between 0 and 4, got 5"));
  CHECK_THAT(all, Contains("node.kademlia.relay.keepInterval: must be between 1000 and 30000"));
  CHECK_THAT(all, Contains("node.kademlia.relay.hops: unknown key"));
  CHECK_THAT(all, Contains("node.kademlia.rateLimit.perIp: expected a number, got 'fast'"));
  CHECK_THAT(all, Contains("node.kademlia.bucketSize: unknown key"));
  CHECK(read.kad.routing.bucket_size == kademlia::KademliaConfig{}.routing.bucket_size);
}

}  // namespace
}  // namespace skillnode::node::config
