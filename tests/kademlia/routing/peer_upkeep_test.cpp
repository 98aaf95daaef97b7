// PeerUpkeep (kademlia/routing/peer_upkeep.h): a proven requester is heard, an unproven one is
// asked for one signed ping at a time (or skipped when the table has no use for it, unless it
// asks for a chunk); a newcomer to a full bucket pings its oldest contact; failures evict and
// forget proofs only at the known address; departed contacts are probed when due, and their
// return starts a self-lookup at most once per departed_probe_after; a peer in client mode is
// never heard, and a contact that turns client leaves the table once its reply to a ping says so.
#include "kademlia/routing/peer_upkeep.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/identity.h"
#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using routing_test::AtDistance;

const HashKey kKey{2, 7, 1, 8, 2, 8, 1, 8};
const transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(100);
const NodeId kSelf = Key::Sha256("upkeep-owner");

// A peer at a chosen distance from kSelf ("0": the near half, "1": the far half).
struct Remote {
  Remote(std::string_view bits, const std::string& name, const char* endpoint_text)
      : id(AtDistance(kSelf, bits, name)),
        endpoint(*transport::Endpoint::Parse(endpoint_text)),
        key(Identity::FromSeed(Key::Sha256("key:" + name).bytes()).public_key()) {}

  wire::Header Header() const {
    wire::Header header;
    header.txid = 1;
    header.sender_id = id;
    header.sender_key = key;
    return header;
  }
  wire::Message Request(wire::Body body) const { return wire::Message{Header(), std::move(body)}; }

  NodeId id;
  transport::Endpoint endpoint;
  PublicKey key;
};

struct UpkeepFixture {
  struct Sent {
    transport::Endpoint to;
    NodeId to_id;
    wire::Body body;
    rpc::RpcCallback done;
  };

  explicit UpkeepFixture(transport::Duration ping_oldest_after = transport::Seconds(15 * 60))
      : config(ConfigWith(ping_oldest_after)) {}

  // One contact per bucket: a near and a far contact fill the table's two buckets.
  static KademliaConfig ConfigWith(transport::Duration ping_oldest_after) {
    KademliaConfig config;
    config.routing.bucket_size = 1;
    config.routing.ping_oldest_after = ping_oldest_after;
    return config;
  }

  // Requests of every kind the helper sends, refused or not.
  std::vector<Sent> sent;
  bool send_succeeds = true;
  std::vector<NodeId> added;
  std::vector<NodeId> evicted;
  std::vector<transport::TimePoint> rejoins;

  KademliaConfig config;
  RoutingTable routing{kSelf, config.routing};
  PeerBook book{config, routing, kKey};
  NodeStats stats;
  PeerUpkeep upkeep{
      config, routing, book, stats,
      PeerUpkeep::Actions{
          .send =
              [this](transport::TimePoint, const transport::Endpoint& to, const NodeId& to_id,
                     wire::Body body, rpc::RpcCallback done) {
                sent.push_back(Sent{to, to_id, std::move(body), std::move(done)});
                return send_succeeds;
              },
          .added = [this](transport::TimePoint,
                          const Contact& contact) { added.push_back(contact.id); },
          .evicted = [this](transport::TimePoint, const NodeId& id) { evicted.push_back(id); },
          .rejoin = [this](transport::TimePoint now) { rejoins.push_back(now); }}};

  // Fails `who` at its own address until the table evicts it.
  void Evict(transport::TimePoint now, const Remote& who) {
    for (int i = 0; i < config.routing.stale_failures_max; ++i) {
      upkeep.FailedAt(now, who.id, who.endpoint);
    }
    REQUIRE(routing.Find(who.id) == std::nullopt);
  }
};

const Remote kNear("0", "near", "10.0.0.2:6881");
const Remote kFar("1", "far", "10.0.0.3:6881");
const Remote kFar2("1", "far-2", "10.0.0.4:6881");

rpc::RpcResult TimedOut(const transport::Endpoint& from) {
  return rpc::RpcResult{rpc::RpcStatus::kTimedOut, nullptr, from, transport::Duration{}, kNow};
}

TEST_CASE("a requester that proved its key at its address is heard without another ping",
          "[unit]") {
  UpkeepFixture f;
  f.book.Remember(kNear.endpoint, kNear.Header());
  f.upkeep.ConsiderRequester(kNow, kNear.endpoint, kNear.Request(wire::PingBody{}));
  CHECK(f.stats.verification_cache_hits == 1);
  CHECK(f.sent.empty());
  CHECK(f.added == std::vector<NodeId>{kNear.id});
  CHECK(f.routing.Find(kNear.id) != std::nullopt);
}

TEST_CASE("an unproven requester the table wants is asked for one signed ping at a time",
          "[unit]") {
  UpkeepFixture f;
  f.upkeep.ConsiderRequester(kNow, kNear.endpoint, kNear.Request(wire::PingBody{}));
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0].to == kNear.endpoint);
  CHECK(f.sent[0].to_id == kNear.id);
  CHECK(std::holds_alternative<wire::PingBody>(f.sent[0].body));
  CHECK(f.added.empty());  // not before it signed
  f.upkeep.ConsiderRequester(kNow, kNear.endpoint, kNear.Request(wire::PingBody{}));
  CHECK(f.sent.size() == 1);
  f.sent[0].done(TimedOut(kNear.endpoint));
  f.upkeep.ConsiderRequester(kNow, kNear.endpoint, kNear.Request(wire::PingBody{}));
  CHECK(f.sent.size() == 2);
}

TEST_CASE("a verification ping that cannot be sent does not keep the requester's slot", "[unit]") {
  UpkeepFixture f;
  f.send_succeeds = false;
  f.upkeep.VerifyRequester(kNow, kNear.endpoint, kNear.id);
  f.upkeep.VerifyRequester(kNow, kNear.endpoint, kNear.id);
  CHECK(f.sent.size() == 2);
}

TEST_CASE("a requester the table has no room for is skipped unless it asks for a chunk", "[unit]") {
  UpkeepFixture f;
  f.upkeep.HearVerified(kNow, kNear.endpoint, kNear.Header());
  f.upkeep.HearVerified(kNow, kFar.endpoint, kFar.Header());
  REQUIRE(f.added == std::vector<NodeId>{kNear.id, kFar.id});
  f.upkeep.ConsiderRequester(kNow, kFar2.endpoint, kFar2.Request(wire::PingBody{}));
  CHECK(f.stats.verifications_skipped == 1);
  CHECK(f.sent.empty());
  f.upkeep.ConsiderRequester(kNow, kFar2.endpoint, kFar2.Request(wire::BlobGetBody{}));
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0].to_id == kFar2.id);
  CHECK(f.stats.verifications_skipped == 1);
}

// The header of `who` in client mode ("c").
wire::Header ClientHeader(const Remote& who) {
  wire::Header header = who.Header();
  header.client = true;
  return header;
}

TEST_CASE("a peer in client mode is answered but never enters the routing table", "[unit]") {
  UpkeepFixture f;
  // Not in the table: not pinged, as the table would not take it anyway.
  f.upkeep.ConsiderRequester(kNow, kNear.endpoint,
                             wire::Message{ClientHeader(kNear), wire::PingBody{}});
  CHECK(f.sent.empty());
  // Its reply to a request of ours proves its key; it is remembered, not heard.
  f.upkeep.HearVerified(kNow, kNear.endpoint, ClientHeader(kNear));
  CHECK(f.book.ProvenRequester(kNear.endpoint, kNear.Header()));
  f.upkeep.ConsiderRequester(kNow, kNear.endpoint,
                             wire::Message{ClientHeader(kNear), wire::PingBody{}});
  CHECK(f.added.empty());
  CHECK(f.routing.Find(kNear.id) == std::nullopt);
  CHECK(f.stats.client_messages == 3);
  CHECK(f.stats.clients_removed == 0);
  // A chunk requester is asked to prove its key all the same: chunks go to proven addresses.
  f.upkeep.ConsiderRequester(kNow, kFar.endpoint,
                             wire::Message{ClientHeader(kFar), wire::BlobGetBody{}});
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0].to_id == kFar.id);
}

TEST_CASE(
    "a contact that says it is a client now leaves the table once its reply to our ping says so "
    "too",
    "[unit]") {
  UpkeepFixture f;
  f.upkeep.HearVerified(kNow, kNear.endpoint, kNear.Header());
  REQUIRE(f.added == std::vector<NodeId>{kNear.id});
  // A request with "c" claiming kNear (from its address, or any other) only gets a ping to
  // where it came from; the table drops nothing on its word.
  f.upkeep.ConsiderRequester(kNow, kNear.endpoint,
                             wire::Message{ClientHeader(kNear), wire::PingBody{}});
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0].to == kNear.endpoint);
  CHECK(f.sent[0].to_id == kNear.id);
  CHECK(f.routing.Find(kNear.id) != std::nullopt);
  CHECK(f.evicted.empty());
  SECTION("the real kNear answers as a full node (the request was forged): it stays") {
    f.upkeep.HearVerified(kNow, kNear.endpoint, kNear.Header());
    CHECK(f.routing.InBucket(kNear.id));
    CHECK(f.stats.clients_removed == 0);
  }
  SECTION("kNear answers in client mode (its verdict turned): it leaves, and comes back later") {
    f.upkeep.HearVerified(kNow, kNear.endpoint, ClientHeader(kNear));
    CHECK(f.routing.Find(kNear.id) == std::nullopt);
    CHECK(f.evicted == std::vector<NodeId>{kNear.id});
    CHECK(f.stats.clients_removed == 1);
    f.upkeep.HearVerified(kNow, kNear.endpoint, kNear.Header());
    CHECK(f.routing.InBucket(kNear.id));
  }
}

TEST_CASE("a client found in a replacement cache leaves it without an eviction", "[unit]") {
  UpkeepFixture f;
  f.upkeep.HearVerified(kNow, kNear.endpoint, kNear.Header());  // the table has split
  f.upkeep.HearVerified(kNow, kFar.endpoint, kFar.Header());
  f.upkeep.HearVerified(kNow, kFar2.endpoint, kFar2.Header());  // the far bucket is full
  REQUIRE(f.routing.Find(kFar2.id) != std::nullopt);
  REQUIRE_FALSE(f.routing.InBucket(kFar2.id));
  f.upkeep.HearVerified(kNow, kFar2.endpoint, ClientHeader(kFar2));
  CHECK(f.routing.Find(kFar2.id) == std::nullopt);
  CHECK(f.stats.clients_removed == 1);
  CHECK(f.evicted.empty());  // services never heard of it as a contact
}

TEST_CASE("a newcomer to a full bucket pings its oldest contact once", "[unit]") {
  UpkeepFixture f(transport::Seconds(0));  // the oldest contact is always due a ping
  f.upkeep.HearVerified(kNow, kNear.endpoint, kNear.Header());
  f.upkeep.HearVerified(kNow, kFar.endpoint, kFar.Header());
  f.upkeep.HearVerified(kNow, kFar2.endpoint, kFar2.Header());
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0].to == kFar.endpoint);
  CHECK(f.sent[0].to_id == kFar.id);
  CHECK(f.added == std::vector<NodeId>{kNear.id, kFar.id});  // kFar2 waits as a replacement
  f.upkeep.HearVerified(kNow, kFar2.endpoint, kFar2.Header());
  CHECK(f.sent.size() == 1);
}

TEST_CASE("a failure counts and forgets the proof only at the address the table knows", "[unit]") {
  UpkeepFixture f;
  f.upkeep.HearVerified(kNow, kFar.endpoint, kFar.Header());
  const transport::Endpoint elsewhere = *transport::Endpoint::Parse("10.0.0.9:6881");
  f.upkeep.FailedAt(kNow, kFar.id, elsewhere);
  CHECK(f.routing.Find(kFar.id)->failures == 0);
  CHECK(f.book.ProvenKey(kFar.id, &kFar.endpoint) != nullptr);
  f.Evict(kNow, kFar);
  CHECK(f.evicted == std::vector<NodeId>{kFar.id});
  CHECK(f.book.ProvenKey(kFar.id) == nullptr);
}

TEST_CASE("a departed contact is probed when due and its return starts a rate-limited rejoin",
          "[unit]") {
  UpkeepFixture f;
  f.upkeep.HearVerified(kNow, kFar.endpoint, kFar.Header());
  f.Evict(kNow, kFar);
  const transport::TimePoint due = f.upkeep.NextDeadline();
  REQUIRE(due > kNow);
  f.upkeep.OnTimer(kNow);
  CHECK(f.sent.empty());
  f.upkeep.OnTimer(due);
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0].to == kFar.endpoint);
  CHECK(f.sent[0].to_id == kFar.id);
  CHECK_FALSE(f.sent[0].done);
  CHECK(f.stats.departed_probes == 1);

  f.upkeep.HearVerified(due, kFar.endpoint, kFar.Header());
  CHECK(f.rejoins == std::vector<transport::TimePoint>{due});
  // Gone and back again sooner than departed_probe_after: no second lookup yet.
  f.Evict(due, kFar);
  f.upkeep.HearVerified(due + transport::Seconds(1), kFar.endpoint, kFar.Header());
  CHECK(f.rejoins.size() == 1);
  const transport::TimePoint later = due + f.config.routing.departed_probe_after;
  f.Evict(later, kFar);
  f.upkeep.HearVerified(later, kFar.endpoint, kFar.Header());
  CHECK(f.rejoins == std::vector<transport::TimePoint>{due, later});
}

}  // namespace
}  // namespace skillnode::kademlia::routing
