// PeerBook (kademlia/routing/peer_book.h): a proof counts at the address it was made from; the
// verified-peer cache is bounded, least recently heard forgotten first; hearing adds a contact
// to the routing table and reports one that returns after eviction; failures count only at the
// address the table knows; verification and liveness pings run one at a time.
#include "kademlia/routing/peer_book.h"

#include <catch2/catch.hpp>
#include <string>

#include "support/peer.h"

namespace skillnode::kademlia::routing {
namespace {

using testing::Peer;

const HashKey kKey{1, 1, 2, 3, 5, 8, 13, 21};
const transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(100);

struct BookFixture {
  KademliaConfig config;
  RoutingTable routing{Key::Sha256("book-owner"), config.routing};
  PeerBook book{config, routing, kKey};

  static Contact ContactOf(const Peer& peer) {
    return Contact{peer.id(), peer.endpoint, peer.identity.public_key(), kNow, 0};
  }
};

TEST_CASE("a proof counts at the address it was made from and nowhere else", "[unit]") {
  BookFixture f;
  const Peer a("a", "10.0.0.2:6881");
  const transport::Endpoint elsewhere = *transport::Endpoint::Parse("10.0.0.9:6881");
  CHECK(f.book.ProvenKey(a.id()) == nullptr);
  f.book.Remember(a.endpoint, a.HeaderFor(1));
  REQUIRE(f.book.ProvenKey(a.id()) != nullptr);
  CHECK(*f.book.ProvenKey(a.id()) == a.identity.public_key());
  CHECK(f.book.ProvenKey(a.id(), &a.endpoint) != nullptr);
  CHECK(f.book.ProvenKey(a.id(), &elsewhere) == nullptr);
  CHECK(f.book.ProvenRequester(a.endpoint, a.HeaderFor(2)));
  CHECK_FALSE(f.book.ProvenRequester(elsewhere, a.HeaderFor(2)));
  // The same id under another key proves nothing.
  wire::Header forged = a.HeaderFor(3);
  forged.sender_key = Peer("b", "10.0.0.3:6881").identity.public_key();
  CHECK_FALSE(f.book.ProvenRequester(a.endpoint, forged));
  f.book.ForgetProof(a.id(), elsewhere);
  CHECK(f.book.ProvenKey(a.id()) != nullptr);
  f.book.ForgetProof(a.id(), a.endpoint);
  CHECK(f.book.ProvenKey(a.id()) == nullptr);
}

TEST_CASE("the verified-peer cache forgets the least recently heard peer first", "[unit]") {
  BookFixture f;
  f.config.verified_peers_max = 2;
  const Peer a("a", "10.0.0.2:6881"), b("b", "10.0.0.3:6881"), c("c", "10.0.0.4:6881");
  f.book.Remember(a.endpoint, a.HeaderFor(1));
  f.book.Remember(b.endpoint, b.HeaderFor(1));
  CHECK(f.book.ProvenRequester(a.endpoint, a.HeaderFor(2)));  // `a` is now the most recent
  f.book.Remember(c.endpoint, c.HeaderFor(1));
  CHECK(f.book.ProvenKey(a.id()) != nullptr);
  CHECK(f.book.ProvenKey(b.id()) == nullptr);
  CHECK(f.book.ProvenKey(c.id()) != nullptr);
}

TEST_CASE("hearing adds a contact, eviction keeps it as departed, and its return is reported",
          "[unit]") {
  BookFixture f;
  const Peer a("a", "10.0.0.2:6881");
  const auto first = f.book.Hear(kNow, BookFixture::ContactOf(a));
  CHECK(first.inserted.outcome == InsertOutcome::kAdded);
  CHECK_FALSE(first.returned);
  // The table's contacts are proven without a cache entry.
  CHECK(f.book.ProvenKey(a.id(), &a.endpoint) != nullptr);
  // A failure at an address the table does not know for `a` counts nothing.
  CHECK_FALSE(f.book.Failed(kNow, a.id(), *transport::Endpoint::Parse("10.0.0.9:6881")));
  CHECK(f.routing.Find(a.id())->failures == 0);
  bool evicted = false;
  for (int i = 0; i < f.config.routing.stale_failures_max && !evicted; ++i) {
    evicted = f.book.Failed(kNow, a.id(), a.endpoint);
  }
  REQUIRE(evicted);
  CHECK(f.routing.Find(a.id()) == std::nullopt);
  CHECK(f.book.departed().contains(a.id()));
  const auto back = f.book.Hear(kNow + transport::Seconds(1), BookFixture::ContactOf(a));
  CHECK(back.returned);
  CHECK_FALSE(f.book.departed().contains(a.id()));
}

TEST_CASE("one verification ping runs per requester and per address, within the bound", "[unit]") {
  BookFixture f;
  f.config.verifications_in_flight_max = 2;
  const transport::Endpoint one = *transport::Endpoint::Parse("10.0.0.2:6881");
  const transport::Endpoint two = *transport::Endpoint::Parse("10.0.0.3:6881");
  const transport::Endpoint three = *transport::Endpoint::Parse("10.0.0.4:6881");
  const NodeId a = Key::Sha256("a"), b = Key::Sha256("b"), c = Key::Sha256("c");
  CHECK(f.book.StartVerifying(a, one));
  CHECK_FALSE(f.book.StartVerifying(a, two));  // the same requester elsewhere
  CHECK_FALSE(f.book.StartVerifying(b, one));  // another id at the same address
  CHECK(f.book.StartVerifying(b, two));
  CHECK_FALSE(f.book.StartVerifying(c, three));  // two in flight already
  f.book.Verified(a, one);
  CHECK(f.book.StartVerifying(c, three));
}

TEST_CASE("one liveness ping runs per contact at a time", "[unit]") {
  BookFixture f;
  const NodeId a = Key::Sha256("a");
  CHECK(f.book.StartLivenessPing(a));
  CHECK_FALSE(f.book.StartLivenessPing(a));
  f.book.LivenessPinged(a);
  CHECK(f.book.StartLivenessPing(a));
}

}  // namespace
}  // namespace skillnode::kademlia::routing
