// The node's datagram handling, limits, timeouts and shutdown. Its proof of keys is tested in
// node_verification_test.cpp.
#include "kademlia/node.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/node_fixture.h"
#include "support/peer.h"

namespace skillnode::kademlia {
namespace {

using skillnode::testing::Fixture;
using skillnode::testing::Peer;

// `stem` followed by `i` (built in place: GCC 12 warns of a false -Wrestrict for a literal
// plus a std::to_string temporary at -O2).
std::string Numbered(const char* stem, int i) {
  std::string name = stem;
  name += std::to_string(i);
  return name;
}

TEST_CASE("a message whose id is not the hash of its key is dropped and counted", "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  wire::Message ping = peer.Request(wire::PingBody{}, 1);
  ping.header.sender_id = Key::Sha256("chosen id");
  f.Deliver(peer, ping);
  CHECK(f.Dropped(DropReason::kIdMismatch) == 1);
  CHECK(f.transport.sent.empty());
}

TEST_CASE("messages from another network are dropped and counted", "[unit]") {
  Fixture f;
  Peer stranger("a", "10.0.0.2:6881", /*network_id=*/7);
  f.Deliver(stranger, stranger.Request(wire::PingBody{}, 1));
  CHECK(f.Dropped(DropReason::kWrongNetwork) == 1);
  CHECK(f.transport.sent.empty());
}

TEST_CASE("malformed datagrams are dropped and counted without a reply", "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  const auto valid = Peer::Bytes(peer.Request(wire::PingBody{}, 1));
  const std::vector<std::vector<uint8_t>> bad = {
      {},
      {0xc1},                                                // never-used msgpack byte
      std::vector<uint8_t>(valid.begin(), valid.end() - 1),  // truncated
      std::vector<uint8_t>(kDatagramSizeMax + 1, 0x90),      // oversize
      {0x93, 0x01, 0x02, 0x03},                              // an array, not a map
  };
  for (const auto& bytes : bad) f.Deliver(peer.endpoint, bytes);
  CHECK(f.Dropped(DropReason::kMalformed) == bad.size());
  CHECK(f.transport.sent.empty());
  CHECK(f.node.stats().datagrams_received == bad.size());
}

TEST_CASE("our own id coming back is dropped", "[unit]") {
  Fixture f;
  Peer self_copy("x", "10.0.0.2:6881");
  self_copy.identity = f.identity;
  f.Deliver(self_copy, self_copy.Request(wire::PingBody{}, 1));
  CHECK(f.Dropped(DropReason::kFromSelf) == 1);
}

TEST_CASE("an unknown request type is answered with an ERROR naming it", "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.Deliver(peer, peer.Request(wire::UnknownBody{42}, 9));
  auto sent = f.transport.Take();
  REQUIRE_FALSE(sent.empty());
  const wire::Message reply = sent[0].Decoded();
  const auto* error = std::get_if<wire::ErrorBody>(&reply.body);
  REQUIRE(error != nullptr);
  CHECK(error->code == static_cast<uint16_t>(wire::ErrorReplyCode::kUnknownType));
  CHECK_THAT(error->message, Catch::Contains("42"));
  CHECK(reply.header.txid == 9);
}

TEST_CASE("unsolicited, duplicate and misdirected replies are dropped", "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.Verify(peer);
  Peer elsewhere("a", "10.0.0.3:6881");  // same identity, another address

  SECTION("a reply nobody asked for") {
    f.Deliver(peer, peer.Reply(peer.Request(wire::PingBody{}, 12345), wire::PongBody{}));
    CHECK(f.Dropped(DropReason::kUnmatchedReply) == 1);
  }
  SECTION("a reply from another address, then the right one, then a duplicate") {
    bool replied = false;
    REQUIRE(f.node.Ping(f.now, peer.endpoint, [&](const rpc::RpcResult& r) {
      replied = r.status == rpc::RpcStatus::kReplied;
    }));
    const wire::Message ping = f.transport.Take().at(0).Decoded();
    f.Deliver(elsewhere, elsewhere.Reply(ping, wire::PongBody{}));
    CHECK(f.Dropped(DropReason::kWrongSource) == 1);
    CHECK_FALSE(replied);
    f.Deliver(peer, peer.Reply(ping, wire::PongBody{}));
    CHECK(replied);
    f.Deliver(peer, peer.Reply(ping, wire::PongBody{}));
    CHECK(f.Dropped(DropReason::kUnmatchedReply) == 1);
  }
}

TEST_CASE("timeouts count failures and evict a contact after stale_failures_max", "[unit]") {
  KademliaConfig config;
  config.routing.stale_failures_max = 3;
  Fixture f(config);
  Peer peer("a", "10.0.0.2:6881");
  f.Verify(peer);
  for (int attempt = 1; attempt <= 3; ++attempt) {
    INFO("attempt " << attempt);
    REQUIRE(f.node.routing_table().Find(peer.id()) != std::nullopt);
    rpc::RpcStatus status = rpc::RpcStatus::kReplied;
    REQUIRE(f.node.FindNode(f.now, Key::Sha256("t"), [&](const LookupResult& result) {
      status = result.closest.empty() ? rpc::RpcStatus::kTimedOut : rpc::RpcStatus::kReplied;
    }));
    REQUIRE(f.node.NextDeadline() <= f.now + config.rpc_timeout);
    f.now = f.node.NextDeadline();
    f.node.OnTimer(f.now);
    CHECK(status == rpc::RpcStatus::kTimedOut);
    f.transport.Take();
  }
  CHECK(f.node.routing_table().Find(peer.id()) == std::nullopt);
  CHECK(f.node.stats().rpcs_timed_out[static_cast<size_t>(TypeSlot::kFindNode)] == 3);
}

TEST_CASE("a per-address rate limit drops excess requests and counts them", "[unit]") {
  KademliaConfig config;
  config.rate_limit.per_ip_rate = 1;
  config.rate_limit.per_ip_burst = 5;
  Fixture f(config);
  Peer noisy("a", "10.0.0.2:6881");
  Peer quiet("b", "10.0.0.3:6881");
  for (uint64_t i = 0; i < 10; ++i)
    f.Deliver(noisy, noisy.Request(wire::PingBody{}, 100 + i, false));
  f.Deliver(quiet, quiet.Request(wire::PingBody{}, 1, false));
  CHECK(f.Dropped(DropReason::kRateLimitedIp) == 5);
  size_t pongs_to_quiet = 0;
  for (const auto& s : f.transport.sent) {
    pongs_to_quiet +=
        s.to == quiet.endpoint && std::holds_alternative<wire::PongBody>(s.Decoded().body);
  }
  CHECK(pongs_to_quiet == 1);
  // The bucket refills with time.
  f.now += transport::Seconds(2);
  f.transport.Take();
  f.Deliver(noisy, noisy.Request(wire::PingBody{}, 200, false));
  CHECK(f.Dropped(DropReason::kRateLimitedIp) == 5);
}

TEST_CASE("a global rate limit caps requests from all addresses together", "[unit]") {
  KademliaConfig config;
  config.rate_limit.global_rate = 1;
  config.rate_limit.global_burst = 3;
  Fixture f(config);
  for (int i = 0; i < 6; ++i) {
    Peer peer(Numbered("p", i), (Numbered("10.0.1.", i + 1) + ":6881").c_str());
    f.Deliver(peer, peer.Request(wire::PingBody{}, 1, false));
  }
  CHECK(f.Dropped(DropReason::kRateLimitedGlobal) == 3);
}

TEST_CASE("requests beyond the in-flight limit are refused at once", "[unit]") {
  KademliaConfig config;
  config.rpcs_in_flight_max = 2;
  Fixture f(config);
  const transport::Endpoint to = *transport::Endpoint::Parse("10.0.0.9:6881");
  CHECK(f.node.Ping(f.now, to, nullptr));
  CHECK(f.node.Ping(f.now, to, nullptr));
  CHECK_FALSE(f.node.Ping(f.now, to, nullptr));
  CHECK(f.node.stats().rpcs_refused == 1);
  CHECK(f.node.rpcs_in_flight() == 2);
}

TEST_CASE("shutdown cancels every pending request exactly once and silences the node", "[unit]") {
  Fixture f;
  int cancelled = 0;
  const transport::Endpoint to = *transport::Endpoint::Parse("10.0.0.9:6881");
  REQUIRE(f.node.Ping(f.now, to, [&](const rpc::RpcResult& r) {
    cancelled += r.status == rpc::RpcStatus::kCancelled;
  }));
  f.node.Shutdown(f.now);
  CHECK(cancelled == 1);
  CHECK(f.node.rpcs_in_flight() == 0);
  CHECK(f.node.NextDeadline() == transport::kTimeNever);
  f.transport.Take();
  Peer peer("a", "10.0.0.2:6881");
  f.Deliver(peer, peer.Request(wire::PingBody{}, 1));
  CHECK(f.transport.sent.empty());
}

TEST_CASE("shutdown sends LEAVE to the contacts nearest our id, at most leave_notices_max",
          "[unit]") {
  KademliaConfig config;
  config.leave_notices_max = 3;
  Fixture f(config);
  std::vector<Peer> peers;
  for (int i = 0; i < 5; ++i) {
    peers.emplace_back(Numbered("p", i), (Numbered("10.0.3.", i + 1) + ":6881").c_str());
  }
  for (const Peer& p : peers) f.Verify(p);
  const std::vector<Contact> nearest = f.node.routing_table().Closest(f.node.id(), 3);
  f.node.Shutdown(f.now);
  const auto sent = f.transport.Take();
  REQUIRE(sent.size() == 3);
  for (size_t i = 0; i < sent.size(); ++i) {
    const wire::Message leave = sent[i].Decoded();
    CHECK(std::holds_alternative<wire::LeaveBody>(leave.body));
    CHECK(leave.header.sender_id == f.node.id());
    CHECK(sent[i].to == nearest[i].endpoint);
  }
  CHECK(f.node.stats().leaves_sent == 3);

  Fixture quiet([] {
    KademliaConfig none;
    none.leave_notices_max = 0;
    return none;
  }());
  quiet.Verify(peers[0]);
  quiet.node.Shutdown(quiet.now);
  CHECK(quiet.transport.Take().empty());
}

TEST_CASE("a LEAVE removes its sender from the table, only from the address it is known at",
          "[unit]") {
  Fixture f;
  Peer leaving("leaving", "10.0.4.1:6881");
  Peer other("other", "10.0.4.2:6881");
  f.Verify(leaving);
  f.Verify(other);
  // The same id and key from another address (unsigned, as every LEAVE is): ignored.
  Peer forged = leaving;
  forged.endpoint = *transport::Endpoint::Parse("10.0.4.99:6881");
  f.Deliver(forged, forged.Request(wire::LeaveBody{}, 5, false));
  CHECK(f.node.routing_table().Find(leaving.id()) != std::nullopt);
  CHECK(f.node.stats().contacts_left == 0);

  f.Deliver(leaving, leaving.Request(wire::LeaveBody{}, 6, false));
  CHECK(f.node.routing_table().Find(leaving.id()) == std::nullopt);
  CHECK(f.node.routing_table().Find(other.id()) != std::nullopt);
  CHECK(f.node.stats().contacts_left == 1);
  CHECK(f.transport.Take().empty());  // a notice is not answered
  // Nor kept as departed: nothing pings it later.
  f.now += transport::Seconds(60);
  f.node.OnTimer(f.now);
  for (const auto& s : f.transport.Take()) CHECK(s.to != leaving.endpoint);
  // Back again (its key still proven at its address), its first request puts it back.
  f.Deliver(leaving, leaving.Request(wire::PingBody{}, 7));
  CHECK(f.node.routing_table().Find(leaving.id()) != std::nullopt);
}

TEST_CASE("a find_node reply lists the closest contacts but never the requester", "[unit]") {
  Fixture f;
  std::vector<Peer> peers;
  for (int i = 0; i < 5; ++i) {
    peers.emplace_back(Numbered("p", i), (Numbered("10.0.2.", i + 1) + ":6881").c_str());
  }
  for (const Peer& p : peers) f.Verify(p);
  f.Deliver(peers[0], peers[0].Request(wire::FindNodeBody{peers[0].id()}, 77, false));
  const wire::Message reply = f.transport.Take().at(0).Decoded();
  const auto& nodes = std::get<wire::NodesBody>(reply.body).nodes;
  CHECK(nodes.size() == 4);
  for (const auto& c : nodes) CHECK(c.id != peers[0].id());
  for (size_t i = 1; i < nodes.size(); ++i) {
    CHECK(CloserTo(peers[0].id(), nodes[i - 1].id, nodes[i].id));
  }
}

TEST_CASE("a node's keyed hashes take its key from its seeded rng, or the one it is given",
          "[unit]") {
  Fixture a;
  Fixture b;
  // Same seed (the simulator's case): the same key, so a seeded run is reproduced.
  CHECK(a.node.hash_key() == b.node.hash_key());
  CHECK(a.node.hash_key() != HashKey{});
  transport::Rng other_seed(8);
  skillnode::testing::RecordingTransport transport;
  transport::NullLogger logger;
  Node c({}, a.identity, transport, other_seed, logger, a.now);
  CHECK(c.hash_key() != a.node.hash_key());
  const HashKey given = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};
  transport::Rng rng(7);
  Node d({}, a.identity, transport, rng, logger, a.now, Ed25519Signatures(), given);
  CHECK(d.hash_key() == given);
  // Verified peers are found through the keyed table.
  Peer peer("keyed", "10.0.0.9:6881");
  a.Verify(peer);
  CHECK(a.node.IsVerified(peer.id(), peer.endpoint));
  CHECK(a.node.verified_probe_distance_max() == 0);
}

TEST_CASE("nodes given one set of counters and one configuration share them", "[unit]") {
  KademliaConfig config;
  config.network_id = 5;
  NodeStats shared;
  const NodeSharing sharing{.config = NodeSharing::Config::kReference, .stats = &shared};
  skillnode::testing::RecordingTransport transport;
  transport::NullLogger logger;
  transport::Rng rng(7);
  const auto now = transport::kTimeZero;
  const Identity a_id = Identity::FromSeed(Key::Sha256("a").bytes());
  const Identity b_id = Identity::FromSeed(Key::Sha256("b").bytes());
  Node a(config, a_id, transport, rng, logger, now, Ed25519Signatures(), std::nullopt, sharing);
  Node b(config, b_id, transport, rng, logger, now, Ed25519Signatures(), std::nullopt, sharing);
  Node own(config, b_id, transport, rng, logger, now);
  CHECK(&a.config() == &config);
  CHECK(&b.stats() == &shared);
  CHECK(&own.config() != &config);  // a copy of its own
  CHECK(own.config().network_id == 5);
  Peer peer("p", "10.0.0.2:6881", /*network_id=*/5);
  const auto ping = Peer::Bytes(peer.Request(wire::PingBody{}, 1));
  a.OnDatagram(now, peer.endpoint, ping);
  b.OnDatagram(now, peer.endpoint, ping);
  own.OnDatagram(now, peer.endpoint, ping);
  CHECK(shared.datagrams_received == 2);
  CHECK(shared.requests_received[static_cast<size_t>(TypeSlot::kPing)] == 2);
  CHECK(own.stats().datagrams_received == 1);
  CHECK(&own.stats() != &shared);
}

}  // namespace
}  // namespace skillnode::kademlia
