// MessageScreen (kademlia/message_screen.h): a message from another network, under an id that is
// not its key's hash or under our own id is dropped; a request is admitted within its rate
// budgets (chunk requests always); a reply is matched to its pending request by txid and
// address, and needs a signature that verifies unless it comes from the peer verified when the
// request went out; a bad reply that answers a request as asked rejects that request; the
// screen never takes a pending request itself.
#include "kademlia/message_screen.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "support/peer.h"

namespace skillnode::kademlia {
namespace {

using testing::Peer;
using Action = MessageScreen::Action;

const HashKey kKey{3, 1, 4, 1, 5, 9, 2, 6};
const transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(100);

struct ScreenFixture {
  explicit ScreenFixture(const KademliaConfig& config_in = {}) : config(config_in) {}

  // Records a PING from us to `to_id` at `to`, as Node::SendRequest does, and returns it.
  wire::Message Pending(uint64_t txid, const transport::Endpoint& to, std::optional<NodeId> to_id,
                        bool proof_wanted, std::optional<PublicKey> verified_key = std::nullopt) {
    const wire::Message ping = self.Request(wire::PingBody{}, txid, proof_wanted);
    rpc::PendingRpc rpc;
    rpc.to = to;
    rpc.to_id = to_id;
    rpc.type = ping.type();
    rpc.proof_wanted = proof_wanted;
    rpc.verified_key = verified_key;
    rpc.sent = kNow;
    rpc.deadline = kNow + config.rpc_timeout;
    rpcs.Add(txid, std::move(rpc));
    return ping;
  }
  MessageScreen::Verdict Screen(const transport::Endpoint& from, const wire::Message& message) {
    return screen.Screen(kNow, from, message);
  }

  KademliaConfig config;
  const Peer self{"screen-owner", "10.0.0.1:6881"};
  routing::RoutingTable routing{self.id(), config.routing};
  routing::PeerBook book{config, routing, kKey};
  rpc::RpcTable rpcs{config.rpcs_in_flight_max};
  NodeStats stats;
  MessageScreen screen{config, self.id(), rpcs, book, Ed25519Signatures(), stats, kNow, kKey};
};

TEST_CASE("the screen drops a message from another network, under a foreign key or our own id",
          "[unit]") {
  ScreenFixture f;
  const Peer a("a", "10.0.0.2:6881");
  CHECK(f.Screen(a.endpoint, a.Request(wire::PingBody{}, 1)).action == Action::kRequest);

  const Peer stranger("stranger", "10.0.0.3:6881", /*network_id=*/7);
  const auto other_network = f.Screen(stranger.endpoint, stranger.Request(wire::PingBody{}, 1));
  CHECK(other_network.action == Action::kDrop);
  CHECK(other_network.reason == DropReason::kWrongNetwork);
  CHECK(other_network.detail == "network 7");

  wire::Message forged = a.Request(wire::PingBody{}, 2);
  forged.header.sender_key = stranger.identity.public_key();
  const auto mismatch = f.Screen(a.endpoint, forged);
  CHECK(mismatch.action == Action::kDrop);
  CHECK(mismatch.reason == DropReason::kIdMismatch);
  CHECK(mismatch.detail == a.id().ShortHex());

  const auto ours = f.Screen(a.endpoint, f.self.Request(wire::PingBody{}, 3));
  CHECK(ours.action == Action::kDrop);
  CHECK(ours.reason == DropReason::kFromSelf);
}

TEST_CASE("a request passes the screen within its address's budget, and a chunk request always",
          "[unit]") {
  KademliaConfig config;
  config.rate_limit.per_ip_rate = 1;
  config.rate_limit.per_ip_burst = 2;
  ScreenFixture f(config);
  const Peer noisy("noisy", "10.0.0.2:6881");
  const Peer quiet("quiet", "10.0.0.3:6881");
  CHECK(f.Screen(noisy.endpoint, noisy.Request(wire::PingBody{}, 1)).action == Action::kRequest);
  CHECK(f.Screen(noisy.endpoint, noisy.Request(wire::PingBody{}, 2)).action == Action::kRequest);
  const auto third = f.Screen(noisy.endpoint, noisy.Request(wire::PingBody{}, 3));
  CHECK(third.action == Action::kDrop);
  CHECK(third.reason == DropReason::kRateLimitedIp);
  // A transfer's chunks are metered by the blob service, not here.
  CHECK(f.Screen(noisy.endpoint, noisy.Request(wire::BlobGetBody{}, 4)).action == Action::kRequest);
  CHECK(f.Screen(quiet.endpoint, quiet.Request(wire::PingBody{}, 1)).action == Action::kRequest);
  // A reply spends no budget.
  const wire::Message ping = f.Pending(9, noisy.endpoint, noisy.id(), true);
  CHECK(f.Screen(noisy.endpoint, noisy.Reply(ping, wire::PongBody{})).action == Action::kReply);
}

TEST_CASE("the global budget caps the requests of every address together", "[unit]") {
  KademliaConfig config;
  config.rate_limit.global_rate = 1;
  config.rate_limit.global_burst = 2;
  ScreenFixture f(config);
  const Peer a("a", "10.0.0.2:6881"), b("b", "10.0.0.3:6881"), c("c", "10.0.0.4:6881");
  CHECK(f.Screen(a.endpoint, a.Request(wire::PingBody{}, 1)).action == Action::kRequest);
  CHECK(f.Screen(b.endpoint, b.Request(wire::PingBody{}, 1)).action == Action::kRequest);
  const auto over = f.Screen(c.endpoint, c.Request(wire::PingBody{}, 1));
  CHECK(over.action == Action::kDrop);
  CHECK(over.reason == DropReason::kRateLimitedGlobal);
}

TEST_CASE("a reply is matched to the pending request with its txid, from the address asked",
          "[unit]") {
  ScreenFixture f;
  const Peer a("a", "10.0.0.2:6881");
  const Peer b("b", "10.0.0.3:6881");
  const wire::Message ping = f.Pending(5, a.endpoint, a.id(), true);
  wire::Message reply = a.Reply(ping, wire::PongBody{});

  wire::Message unmatched = reply;
  unmatched.header.txid = 6;
  const auto late = f.Screen(a.endpoint, unmatched);
  CHECK(late.action == Action::kDrop);
  CHECK(late.reason == DropReason::kUnmatchedReply);

  const auto elsewhere = f.Screen(b.endpoint, reply);
  CHECK(elsewhere.action == Action::kDrop);
  CHECK(elsewhere.reason == DropReason::kWrongSource);
  CHECK(elsewhere.detail == "expected " + a.endpoint.ToString());

  CHECK(f.Screen(a.endpoint, reply).action == Action::kReply);
  CHECK(f.stats.signatures_verified == 1);
  // The node takes the request; the screen only judged it.
  CHECK(f.rpcs.size() == 1);
}

TEST_CASE("a reply to a request that asked for a proof needs a signature that verifies", "[unit]") {
  ScreenFixture f;
  const Peer a("a", "10.0.0.2:6881");
  const wire::Message ping = f.Pending(5, a.endpoint, a.id(), true);

  wire::Message unsigned_reply = a.Reply(ping, wire::PongBody{});
  unsigned_reply.header.proof.reset();
  const auto missing = f.Screen(a.endpoint, unsigned_reply);
  CHECK(missing.action == Action::kReject);
  CHECK(missing.reason == DropReason::kBadProof);
  CHECK(missing.detail == "no signature");
  CHECK(f.stats.signatures_verified == 0);

  // A signature over another txid proves nothing about this one.
  wire::Message stale = a.Reply(ping, wire::PongBody{});
  stale.header.proof = a.Reply(f.self.Request(wire::PingBody{}, 4), wire::PongBody{}).header.proof;
  const auto bad = f.Screen(a.endpoint, stale);
  CHECK(bad.action == Action::kReject);
  CHECK(bad.reason == DropReason::kBadProof);
  CHECK(bad.detail == "signature does not verify");
  CHECK(f.stats.signatures_verified == 1);

  // A seed pinged by address alone was asked under no id: a bad answer is only dropped.
  const wire::Message seed_ping = f.Pending(6, a.endpoint, std::nullopt, true);
  wire::Message seed_reply = a.Reply(seed_ping, wire::PongBody{});
  seed_reply.header.proof.reset();
  const auto seed = f.Screen(a.endpoint, seed_reply);
  CHECK(seed.action == Action::kDrop);
  CHECK(seed.reason == DropReason::kBadProof);
  CHECK(f.rpcs.size() == 2);
}

TEST_CASE("a reply from the peer verified when the request went out needs no signature", "[unit]") {
  ScreenFixture f;
  const Peer a("a", "10.0.0.2:6881");
  const Peer b("b", "10.0.0.3:6881");
  f.book.Remember(a.endpoint, a.HeaderFor(1));

  SECTION("its key, verified then, is enough even once the proof is forgotten") {
    const wire::Message ping = f.Pending(5, a.endpoint, a.id(), false, a.identity.public_key());
    f.book.ForgetProof(a.id(), a.endpoint);
    CHECK(f.Screen(a.endpoint, a.Reply(ping, wire::PongBody{})).action == Action::kReply);
    CHECK(f.stats.verification_cache_hits == 1);
  }
  SECTION("a peer still verified at that address is enough") {
    const wire::Message ping = f.Pending(5, a.endpoint, a.id(), false);
    CHECK(f.Screen(a.endpoint, a.Reply(ping, wire::PongBody{})).action == Action::kReply);
    CHECK(f.stats.verification_cache_hits == 1);
  }
  SECTION("another peer answering at that address must sign") {
    const wire::Message ping = f.Pending(5, a.endpoint, a.id(), false, a.identity.public_key());
    const auto other = f.Screen(a.endpoint, b.Reply(ping, wire::PongBody{}));
    CHECK(other.action == Action::kDrop);  // asked of `a`: nothing to reject
    CHECK(other.reason == DropReason::kBadProof);
    CHECK(f.stats.verification_cache_hits == 0);
  }
  CHECK(f.stats.signatures_verified == 0);
}

TEST_CASE("a reply failing the id-key binding rejects only the request it answers as asked",
          "[unit]") {
  ScreenFixture f;
  const Peer honest("honest", "10.0.0.2:6881");
  const Peer impostor("impostor", "10.0.0.9:6881");
  const Peer bystander("bystander", "10.0.0.10:6881");
  // The honest id was named at the impostor's address.
  const wire::Message ping = f.Pending(5, impostor.endpoint, honest.id(), true);
  wire::Message reply = impostor.Reply(ping, wire::PongBody{});
  reply.header.sender_id = honest.id();

  const auto asked = f.Screen(impostor.endpoint, reply);
  CHECK(asked.action == Action::kReject);
  CHECK(asked.reason == DropReason::kIdMismatch);
  CHECK(asked.detail == honest.id().ShortHex());

  const auto from_elsewhere = f.Screen(bystander.endpoint, reply);
  CHECK(from_elsewhere.action == Action::kDrop);
  CHECK(from_elsewhere.reason == DropReason::kIdMismatch);

  wire::Message other_txid = reply;
  other_txid.header.txid = 6;
  CHECK(f.Screen(impostor.endpoint, other_txid).action == Action::kDrop);

  // A request under a foreign key is dropped whatever our requests are.
  wire::Message request = impostor.Request(wire::PingBody{}, 5);
  request.header.sender_id = honest.id();
  CHECK(f.Screen(impostor.endpoint, request).action == Action::kDrop);
  CHECK(f.rpcs.size() == 1);
}

}  // namespace
}  // namespace skillnode::kademlia
