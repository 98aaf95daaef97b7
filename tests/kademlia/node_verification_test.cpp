// The node's proof of keys: signed replies, verifying unknown requesters before they enter the
// routing table, and remembering verified peers (the routing table's contacts and the
// verified-peer cache). The rest of the node's tests are in node_test.cpp.
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>
#include <vector>

#include "kademlia/node.h"
#include "support/node_fixture.h"
#include "support/peer.h"

namespace skillnode::kademlia {
namespace {

using skillnode::testing::Fixture;
using skillnode::testing::Peer;

TEST_CASE("a ping is answered with a pong signed over the request's transaction id", "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.Deliver(peer, peer.Request(wire::PingBody{}, 42, /*proof_wanted=*/true));
  auto sent = f.transport.Take();
  REQUIRE(sent.size() >= 1);
  CHECK(sent[0].to == peer.endpoint);
  const wire::Message pong = sent[0].Decoded();
  CHECK(std::holds_alternative<wire::PongBody>(pong.body));
  CHECK(pong.header.txid == 42);
  CHECK(pong.header.sender_id == f.node.id());
  REQUIRE(pong.header.proof.has_value());
  CHECK(VerifySignature(f.identity.public_key(), wire::ProofBytes(0, 42, f.node.id(), peer.id()),
                        *pong.header.proof));
  REQUIRE(pong.header.observed.has_value());
  CHECK(*pong.header.observed == peer.endpoint);
}

TEST_CASE("a reply carries no signature when the requester did not ask for one", "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.Deliver(peer, peer.Request(wire::PingBody{}, 42, /*proof_wanted=*/false));
  CHECK_FALSE(f.transport.Take().at(0).Decoded().header.proof.has_value());
}

TEST_CASE("an unknown requester enters the routing table only after it signs a reply", "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.Deliver(peer, peer.Request(wire::FindNodeBody{Key::Sha256("x")}, 1));
  auto sent = f.transport.Take();
  REQUIRE(sent.size() == 2);  // the NODES reply, then our verification ping
  CHECK(std::holds_alternative<wire::NodesBody>(sent[0].Decoded().body));
  const wire::Message verify = sent[1].Decoded();
  REQUIRE(std::holds_alternative<wire::PingBody>(verify.body));
  CHECK(verify.header.proof_wanted);
  CHECK(f.node.routing_table().Find(peer.id()) == std::nullopt);

  SECTION("a valid signature admits it") {
    f.Deliver(peer, peer.Reply(verify, wire::PongBody{}));
    const std::optional<Contact> contact = f.node.routing_table().Find(peer.id());
    REQUIRE(contact);
    CHECK(contact->endpoint == peer.endpoint);
    CHECK(f.node.stats().signatures_verified == 1);
  }
  SECTION("a signature by another key is dropped and the peer stays out") {
    Peer impostor("b", "10.0.0.2:6881");
    wire::Message forged = peer.Reply(verify, wire::PongBody{});
    forged.header.proof =
        impostor.identity.Sign(wire::ProofBytes(0, verify.header.txid, peer.id(), f.node.id()));
    f.Deliver(peer, forged);
    CHECK(f.Dropped(DropReason::kBadProof) == 1);
    CHECK(f.node.routing_table().Find(peer.id()) == std::nullopt);
  }
  SECTION("a signature over another transaction id is dropped") {
    wire::Message stale = peer.Reply(verify, wire::PongBody{});
    stale.header.proof =
        peer.identity.Sign(wire::ProofBytes(0, verify.header.txid + 1, peer.id(), f.node.id()));
    f.Deliver(peer, stale);
    CHECK(f.Dropped(DropReason::kBadProof) == 1);
    CHECK(f.node.routing_table().Find(peer.id()) == std::nullopt);
  }
  SECTION("a missing signature is dropped") {
    wire::Message unsigned_reply = peer.Reply(verify, wire::PongBody{});
    unsigned_reply.header.proof.reset();
    f.Deliver(peer, unsigned_reply);
    CHECK(f.Dropped(DropReason::kBadProof) == 1);
    CHECK(f.node.routing_table().Find(peer.id()) == std::nullopt);
  }
}

// A node whose far bucket (one contact) is full and cannot split, and a requester `b` that
// belongs there: the routing table has no use for `b`.
struct FullBucket {
  Fixture f{[] {
    KademliaConfig config;
    config.routing.bucket_size = 1;
    config.routing.ping_oldest_after = transport::Seconds(15 * 60);
    return config;
  }()};
  // Peers named so that `near` shares our id's first bit and `a` and `b` do not: after `near`
  // and `a` the far half's bucket is full and cannot split (one contact is closer).
  Peer near = Named("n", false, 0);
  Peer a = Named("f", true, 0);
  Peer b = Named("f", true, 1);

  FullBucket() {
    near.endpoint = *transport::Endpoint::Parse("10.0.0.3:6881");
    b.endpoint = *transport::Endpoint::Parse("10.0.0.4:6881");
    f.Verify(near);
    f.Verify(a);
  }
  Peer Named(const std::string& stem, bool far, int skip) {
    for (int i = 0;; ++i) {
      Peer p(stem + std::to_string(i), "10.0.0.2:6881");
      if (Distance(p.id(), f.node.id()).Bit(0) == far && skip-- == 0) return p;
    }
  }
};

TEST_CASE("an unknown requester the routing table cannot use is answered but not verified",
          "[unit]") {
  FullBucket fb;
  Fixture& f = fb.f;
  f.Deliver(fb.b, fb.b.Request(wire::FindNodeBody{Key::Sha256("x")}, 1));
  auto sent = f.transport.Take();
  REQUIRE(sent.size() == 1);  // the NODES reply only
  CHECK(std::holds_alternative<wire::NodesBody>(sent[0].Decoded().body));
  CHECK(f.node.stats().verifications_skipped == 1);
  CHECK(f.node.routing_table().Find(fb.b.id()) == std::nullopt);
  // Once `a` has been silent for ping_oldest_after, a newcomer is worth verifying: it would
  // make the bucket ping `a`.
  f.now += transport::Seconds(15 * 60);
  f.Deliver(fb.b, fb.b.Request(wire::FindNodeBody{Key::Sha256("x")}, 2));
  sent = f.transport.Take();
  REQUIRE(sent.size() == 2);
  const wire::Message verify = sent[1].Decoded();
  REQUIRE(std::holds_alternative<wire::PingBody>(verify.body));
  CHECK(verify.header.proof_wanted);
  f.Deliver(fb.b, fb.b.Reply(verify, wire::PongBody{}));
  sent = f.transport.Take();
  REQUIRE(sent.size() == 1);  // the bucket's ping to its oldest contact
  CHECK(sent[0].to == fb.a.endpoint);
  CHECK(std::holds_alternative<wire::PingBody>(sent[0].Decoded().body));
}

TEST_CASE("a requester the routing table cannot use is verified when a service asks", "[unit]") {
  FullBucket fb;
  Fixture& f = fb.f;
  f.Deliver(fb.b, fb.b.Request(wire::FindNodeBody{Key::Sha256("x")}, 1));
  REQUIRE(f.transport.Take().size() == 1);  // answered, not verified
  CHECK_FALSE(f.node.IsVerified(fb.b.id(), fb.b.endpoint));
  f.node.VerifyRequester(f.now, fb.b.endpoint, fb.b.id());
  f.node.VerifyRequester(f.now, fb.b.endpoint, fb.b.id());  // one verification at a time
  auto sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].to == fb.b.endpoint);
  const wire::Message verify = sent[0].Decoded();
  REQUIRE(std::holds_alternative<wire::PingBody>(verify.body));
  CHECK(verify.header.proof_wanted);
  f.Deliver(fb.b, fb.b.Reply(verify, wire::PongBody{}));
  CHECK(f.node.IsVerified(fb.b.id(), fb.b.endpoint));
  const transport::Endpoint elsewhere = *transport::Endpoint::Parse("10.0.0.9:6881");
  CHECK_FALSE(f.node.IsVerified(fb.b.id(), elsewhere));  // only at the address it proved
}

TEST_CASE("a verified peer is not asked to sign again, and its unsigned replies are accepted",
          "[unit]") {
  Fixture f;
  Peer peer("a", "10.0.0.2:6881");
  f.Verify(peer);
  const uint64_t verified_before = f.node.stats().signatures_verified;
  REQUIRE(f.node.FindNode(f.now, Key::Sha256("target"), nullptr));
  auto sent = f.transport.Take();
  REQUIRE(sent.size() == 1);
  const wire::Message find = sent[0].Decoded();
  CHECK_FALSE(find.header.proof_wanted);
  f.Deliver(peer, peer.Reply(find, wire::NodesBody{}));
  CHECK(f.node.stats().signatures_verified == verified_before);
  CHECK(f.node.stats().verification_cache_hits >= 1);
  CHECK(f.node.active_lookups() == 0);
}

// A node whose verified-peer cache holds two peers, and three peers to verify.
struct TwoPeerCache : Fixture {
  TwoPeerCache() : Fixture(Config()) {}
  static KademliaConfig Config() {
    KademliaConfig config;
    config.verified_peers_max = 2;
    return config;
  }
  // Sends each peer a request, and returns those asked for a signed reply: the peers whose
  // key the node no longer counts as proven.
  std::vector<transport::Endpoint> AskedToSign(std::initializer_list<const Peer*> peers) {
    std::vector<transport::Endpoint> asked;
    for (const Peer* peer : peers) {
      REQUIRE(node.Request(now, peer->endpoint, peer->id(), wire::PingBody{}, nullptr));
      const auto sent = transport.Take();
      REQUIRE(sent.size() == 1);
      if (sent[0].Decoded().header.proof_wanted) asked.push_back(peer->endpoint);
    }
    return asked;
  }
  // The peer answers a request of ours (sent now) from its address.
  void Answers(const Peer& peer) {
    REQUIRE(node.Request(now, peer.endpoint, peer.id(), wire::PingBody{}, nullptr));
    const auto sent = transport.Take();
    REQUIRE(sent.size() == 1);
    Deliver(peer, peer.Reply(sent[0].Decoded(), wire::PongBody{}));
  }
  void LeaveTable(std::initializer_list<const Peer*> peers) {
    for (const Peer* peer : peers) REQUIRE(node.mutable_routing_table().Remove(peer->id()));
  }
  Peer a{"a", "10.0.0.2:6881"};
  Peer b{"b", "10.0.0.3:6881"};
  Peer c{"c", "10.0.0.4:6881"};
};

TEST_CASE("the verified-peer cache holds verified_peers_max peers, forgetting the least recent",
          "[unit]") {
  TwoPeerCache f;
  f.Verify(f.a);
  f.Verify(f.b);
  f.Verify(f.c);  // `a`, heard from longest ago, is forgotten by the cache
  f.LeaveTable({&f.a, &f.b, &f.c});
  CHECK(f.AskedToSign({&f.a, &f.b, &f.c}) == std::vector<transport::Endpoint>{f.a.endpoint});
}

TEST_CASE("a verified peer heard from again is the most recent in the cache", "[unit]") {
  TwoPeerCache f;
  f.Verify(f.a);
  f.Verify(f.b);
  f.Answers(f.a);  // a: now more recent than b
  f.Verify(f.c);   // over the bound: b is forgotten, not a
  f.LeaveTable({&f.a, &f.b, &f.c});
  CHECK(f.AskedToSign({&f.a, &f.b, &f.c}) == std::vector<transport::Endpoint>{f.b.endpoint});
}

TEST_CASE("a routing-table contact counts as verified without a cache entry until it fails",
          "[unit]") {
  TwoPeerCache f;
  f.Verify(f.a);
  f.Verify(f.b);
  f.Verify(f.c);  // the cache forgets a, which stays in the routing table
  CHECK(f.AskedToSign({&f.a}).empty());
  // A request to a times out: a must prove its key again.
  f.now += transport::Seconds(60);
  f.node.OnTimer(f.now);
  REQUIRE(f.node.routing_table().Find(f.a.id()) != std::nullopt);
  REQUIRE(f.node.routing_table().Find(f.a.id())->failures == 1);
  CHECK(f.AskedToSign({&f.a}) == std::vector<transport::Endpoint>{f.a.endpoint});
  // Not at another address, even for a contact that has not failed.
  Peer b_elsewhere{"b", "10.0.0.9:6881"};
  CHECK(f.AskedToSign({&b_elsewhere}) == std::vector<transport::Endpoint>{b_elsewhere.endpoint});
}

}  // namespace
}  // namespace skillnode::kademlia
