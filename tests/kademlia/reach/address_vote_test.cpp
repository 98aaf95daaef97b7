// AddressVote: the external address by a quorum of voter groups, the port's mapping (stable or
// varying), one vote per group, expiry, the bound, and the generation that marks a change.
#include "kademlia/reach/address_vote.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::kademlia::reach {
namespace {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

transport::Endpoint At(const std::string& text) { return *transport::Endpoint::Parse(text); }

// Three public voter groups (198.51.100/24, .101/24, .102/24) saw the node at `observed`.
void ThreeGroupsSee(AddressVote& vote, const transport::Endpoint& observed) {
  for (int i = 0; i < 3; ++i) {
    vote.Observe(kStart, At("198.51." + std::to_string(100 + i) + ".1:4222"), observed);
  }
}

ReachConfig Config() {
  ReachConfig config;
  config.vote_quorum = 3;
  config.votes_max = 8;
  config.vote_life = transport::Seconds(600);
  config.vote_refresh = transport::Seconds(60);
  return config;
}

TEST_CASE("three voter groups that agree make the external endpoint; two do not", "[unit]") {
  const ReachConfig config = Config();
  AddressVote vote(config);
  vote.Observe(kStart, At("198.51.100.1:4222"), At("203.0.113.7:31000"));
  vote.Observe(kStart, At("198.51.101.1:4222"), At("203.0.113.7:31000"));
  CHECK(vote.Current(kStart).mapping == PortMapping::kUnknown);
  CHECK_FALSE(vote.Current(kStart).address.has_value());
  CHECK(vote.generation() == 0);
  vote.Observe(kStart, At("198.51.102.1:4222"), At("203.0.113.7:31000"));
  const ExternalAddress& now = vote.Current(kStart);
  CHECK(now.address == At("203.0.113.7:1").address());
  CHECK(now.endpoint == At("203.0.113.7:31000"));
  CHECK(now.mapping == PortMapping::kStable);
  CHECK(now.votes == 3);
  CHECK(vote.generation() == 1);
}

TEST_CASE("public voters in one /24 cast one vote; private voters one per endpoint", "[unit]") {
  const ReachConfig config = Config();
  AddressVote vote(config);
  for (int i = 1; i <= 5; ++i) {
    vote.Observe(kStart, At("198.51.100." + std::to_string(i) + ":4222"), At("203.0.113.7:31000"));
  }
  CHECK(vote.size() == 1);
  CHECK_FALSE(vote.Current(kStart).address.has_value());
  // On one host or a LAN every peer is its own voter: nodes on 127.0.0.1 find their address.
  AddressVote local(config);
  for (int port = 4001; port <= 4003; ++port) {
    local.Observe(kStart, At("127.0.0.1:" + std::to_string(port)), At("127.0.0.1:4000"));
  }
  CHECK(local.size() == 3);
  CHECK(local.Current(kStart).endpoint == At("127.0.0.1:4000"));
}

TEST_CASE("an address the voters agree on with different ports is a varying mapping", "[unit]") {
  const ReachConfig config = Config();
  AddressVote vote(config);
  vote.Observe(kStart, At("198.51.100.1:4222"), At("203.0.113.7:31000"));
  vote.Observe(kStart, At("198.51.101.1:4222"), At("203.0.113.7:31001"));
  vote.Observe(kStart, At("198.51.102.1:4222"), At("203.0.113.7:31002"));
  const ExternalAddress& now = vote.Current(kStart);
  CHECK(now.address == At("203.0.113.7:1").address());
  CHECK_FALSE(now.endpoint.has_value());
  CHECK(now.mapping == PortMapping::kVarying);
}

TEST_CASE(
    "a minority cannot outvote the majority, and a voter that changes its claim is counted "
    "once",
    "[unit]") {
  const ReachConfig config = Config();
  AddressVote vote(config);
  ThreeGroupsSee(vote, At("203.0.113.7:31000"));
  for (int i = 0; i < 2; ++i) {
    vote.Observe(kStart, At("192.0." + std::to_string(i) + ".1:4222"), At("192.0.2.66:6666"));
  }
  CHECK(vote.Current(kStart).endpoint == At("203.0.113.7:31000"));
  // Three of five is more than half; one more liar leaves no majority at all.
  vote.Observe(kStart, At("192.0.9.1:4222"), At("192.0.2.66:6666"));
  CHECK_FALSE(vote.Current(kStart).address.has_value());
  CHECK(vote.generation() == 2);
  // The liar group says the truth now: its one vote moves, it is not added.
  vote.Observe(kStart, At("192.0.9.1:4222"), At("203.0.113.7:31000"));
  CHECK(vote.size() == 6);
  CHECK(vote.Current(kStart).endpoint == At("203.0.113.7:31000"));
}

TEST_CASE("votes expire, a refreshed vote lives on, and a new address wins as the old votes go",
          "[unit]") {
  const ReachConfig config = Config();
  AddressVote vote(config);
  ThreeGroupsSee(vote, At("203.0.113.7:31000"));
  REQUIRE(vote.Current(kStart).endpoint.has_value());
  // The first voter says the same again after the refresh interval: its vote is refreshed.
  vote.Observe(kStart + transport::Seconds(300), At("198.51.100.9:4222"), At("203.0.113.7:31000"));
  // The host moved: three new groups see it elsewhere.
  const transport::TimePoint moved = kStart + transport::Seconds(400);
  for (int i = 0; i < 3; ++i) {
    vote.Observe(moved, At("198.18." + std::to_string(i) + ".1:4222"), At("233.252.0.1:1"));
    vote.Observe(moved, At("198.19." + std::to_string(i) + ".1:4222"), At("192.0.2.200:40000"));
  }
  // Multicast is no address to be reached at: ignored.
  CHECK(vote.size() == 6);
  CHECK_FALSE(vote.Current(moved).address.has_value());  // 3 against 3
  const uint64_t before = vote.generation();
  // At kStart + 600 the two unrefreshed old votes end; the refreshed one lives to kStart + 900.
  const ExternalAddress& later = vote.Current(kStart + transport::Seconds(600));
  CHECK(later.votes == 4);
  CHECK(later.endpoint == At("192.0.2.200:40000"));
  CHECK(vote.generation() == before + 1);
  // The refreshed vote ends at kStart + 900, the new ones at kStart + 1000.
  CHECK(vote.Current(kStart + transport::Seconds(950)).votes == 3);
  CHECK(vote.Current(kStart + transport::Seconds(950)).endpoint == At("192.0.2.200:40000"));
  const ExternalAddress& gone = vote.Current(kStart + transport::Seconds(1000));
  CHECK(gone.votes == 0);
  CHECK(gone.mapping == PortMapping::kUnknown);
  CHECK(vote.size() == 0);
}

TEST_CASE("at most votes_max groups are kept, the oldest vote forgotten first", "[unit]") {
  ReachConfig config = Config();
  config.votes_max = 4;
  AddressVote vote(config);
  for (int i = 0; i < 4; ++i) {
    vote.Observe(kStart + transport::Seconds(i),
                 At("198.51." + std::to_string(100 + i) + ".1:4222"), At("192.0.2.66:6666"));
  }
  REQUIRE(vote.Current(kStart + transport::Seconds(4)).endpoint == At("192.0.2.66:6666"));
  for (int i = 0; i < 3; ++i) {
    vote.Observe(kStart + transport::Seconds(10 + i), At("198.18." + std::to_string(i) + ".1:4222"),
                 At("203.0.113.7:31000"));
  }
  CHECK(vote.size() == 4);
  CHECK(vote.Current(kStart + transport::Seconds(20)).endpoint == At("203.0.113.7:31000"));
}

}  // namespace
}  // namespace skillnode::kademlia::reach
