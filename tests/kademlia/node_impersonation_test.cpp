// A node named at an address that is not its own: the id-to-key binding rejects whoever
// answers there, at once, and the failure never counts against the node at its real address.
#include <catch2/catch.hpp>

#include "kademlia/node.h"
#include "support/node_fixture.h"
#include "support/peer.h"

namespace skillnode::kademlia {
namespace {

using skillnode::testing::Fixture;
using skillnode::testing::Peer;

// Sends a PING to `honest`'s id at `at`; returns the request as sent.
wire::Message PingAt(Fixture& f, const Peer& honest, const transport::Endpoint& at,
                     rpc::RpcStatus* status) {
  REQUIRE(f.node.Request(f.now, at, honest.id(), wire::PingBody{},
                         [status](const rpc::RpcResult& r) { *status = r.status; }));
  auto sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].to == at);
  return sent[0].Decoded();
}

TEST_CASE("an answer under the id asked for that fails the binding fails the request at once",
          "[unit]") {
  Fixture f;
  Peer honest("honest", "10.0.0.2:6881");
  Peer impostor("impostor", "10.0.0.9:6881");
  rpc::RpcStatus status = rpc::RpcStatus::kReplied;
  const wire::Message ping = PingAt(f, honest, impostor.endpoint, &status);
  REQUIRE(ping.header.proof_wanted);  // never verified there: a signature is asked for
  wire::Message reply = impostor.Reply(ping, wire::PongBody{});

  SECTION("the honest id under the impostor's own key: the id is not the key's hash") {
    reply.header.sender_id = honest.id();
    f.Deliver(impostor, reply);
    CHECK(f.Dropped(DropReason::kIdMismatch) == 1);
  }
  SECTION("the honest id and key, signed by the impostor: the proof does not verify") {
    reply.header.sender_id = honest.id();
    reply.header.sender_key = honest.identity.public_key();
    f.Deliver(impostor, reply);
    CHECK(f.Dropped(DropReason::kBadProof) == 1);
  }
  CHECK(status == rpc::RpcStatus::kRejected);
  CHECK(f.node.stats().rpcs_rejected == 1);
  CHECK(f.node.rpcs_in_flight() == 0);
  CHECK(f.node.routing_table().Find(honest.id()) == std::nullopt);
}

TEST_CASE("a bad answer rejects a request only from the address asked, with its txid", "[unit]") {
  Fixture f;
  Peer honest("honest", "10.0.0.2:6881");
  Peer impostor("impostor", "10.0.0.9:6881");
  Peer bystander("bystander", "10.0.0.10:6881");
  rpc::RpcStatus status = rpc::RpcStatus::kReplied;
  const wire::Message ping = PingAt(f, honest, impostor.endpoint, &status);

  wire::Message wrong_txid = impostor.Reply(ping, wire::PongBody{});
  wrong_txid.header.sender_id = honest.id();
  wrong_txid.header.txid = ping.header.txid + 1;
  f.Deliver(impostor, wrong_txid);
  wire::Message elsewhere = bystander.Reply(ping, wire::PongBody{});
  elsewhere.header.sender_id = honest.id();
  f.Deliver(bystander, elsewhere);
  CHECK(f.Dropped(DropReason::kIdMismatch) == 2);
  CHECK(f.node.stats().rpcs_rejected == 0);
  CHECK(f.node.rpcs_in_flight() == 1);  // still waiting for the address asked

  // The timeout ends it as a timeout.
  f.now = f.node.NextDeadline();
  f.node.OnTimer(f.now);
  CHECK(status == rpc::RpcStatus::kTimedOut);
}

TEST_CASE("a failure at another address does not count against a contact or its verification",
          "[unit]") {
  KademliaConfig config;
  config.routing.stale_failures_max = 1;  // one failure at its own address evicts it
  Fixture f(config);
  Peer honest("honest", "10.0.0.2:6881");
  Peer impostor("impostor", "10.0.0.9:6881");
  f.Verify(honest);

  rpc::RpcStatus status = rpc::RpcStatus::kReplied;
  wire::Message ping = PingAt(f, honest, impostor.endpoint, &status);
  f.now = f.node.NextDeadline();
  f.node.OnTimer(f.now);
  CHECK(status == rpc::RpcStatus::kTimedOut);
  ping = PingAt(f, honest, impostor.endpoint, &status);
  wire::Message reply = impostor.Reply(ping, wire::PongBody{});
  reply.header.sender_id = honest.id();
  f.Deliver(impostor, reply);
  CHECK(status == rpc::RpcStatus::kRejected);
  CHECK(f.node.routing_table().Find(honest.id()) != std::nullopt);
  CHECK(f.node.IsVerified(honest.id(), honest.endpoint));

  // At its own address, the same timeout evicts it.
  ping = PingAt(f, honest, honest.endpoint, &status);
  CHECK_FALSE(ping.header.proof_wanted);
  f.now = f.node.NextDeadline();
  f.node.OnTimer(f.now);
  CHECK(status == rpc::RpcStatus::kTimedOut);
  CHECK(f.node.routing_table().Find(honest.id()) == std::nullopt);
  CHECK_FALSE(f.node.IsVerified(honest.id(), honest.endpoint));
}

}  // namespace
}  // namespace skillnode::kademlia
