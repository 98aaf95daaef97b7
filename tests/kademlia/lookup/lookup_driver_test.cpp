// LookupDriver (kademlia/lookup/lookup_driver.h): a lookup starts from the routing table's closest
// contacts, asks them, and finishes once, with the contacts that answered, when they all have,
// when its hook says it found enough, or when its requests cannot be sent; a query that turns
// slow is passed by for the next contact; lookups beyond lookups_max are refused; FinishAll
// ends every lookup with what it has.
#include "kademlia/lookup/lookup_driver.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "support/peer.h"

namespace skillnode::kademlia {
namespace {

using testing::Peer;

struct DriverFixture {
  struct Sent {
    transport::Endpoint to;
    NodeId to_id;
    wire::Body body;
    rpc::RpcCallback done;
  };

  DriverFixture() {
    for (int i = 0; i < 4; ++i) {
      peers.emplace_back("contact-" + std::to_string(i),
                         ("10.0.0." + std::to_string(i + 2) + ":6881").c_str());
      routing.Heard(Contact{peers.back().id(), peers.back().endpoint,
                            peers.back().identity.public_key(), now, 0},
                    now);
    }
  }
  // Answers the `i`th request sent with NODES (no closer contacts).
  void Answer(size_t i) {
    const Peer& peer = PeerAt(sent.at(i).to);
    wire::Message reply{peer.HeaderFor(1), wire::NodesBody{}};
    sent.at(i).done(
        rpc::RpcResult{rpc::RpcStatus::kReplied, &reply, peer.endpoint, transport::Millis(5), now});
  }
  const Peer& PeerAt(const transport::Endpoint& endpoint) const {
    for (const Peer& p : peers) {
      if (p.endpoint == endpoint) return p;
    }
    FAIL("no such peer");
    return peers.front();
  }
  bool Start(LookupOptions options = {}) {
    return driver.Start(now, Key::Sha256("target"), std::move(options),
                        [this](const LookupResult& r) {
                          REQUIRE_FALSE(result.has_value());  // called once
                          result = r;
                        });
  }

  transport::TimePoint now = transport::kTimeZero + transport::Seconds(100);
  KademliaConfig config;
  NodeId self = Key::Sha256("driver-owner");
  routing::RoutingTable routing{self, config.routing};
  rpc::RttEstimator rtt;
  NodeStats stats;
  std::vector<Peer> peers;
  std::vector<Sent> sent;
  bool can_send = true;
  LookupDriver driver{config,
                      self,
                      routing,
                      rtt,
                      stats,
                      [this](transport::TimePoint, const transport::Endpoint& to,
                             const NodeId& to_id, wire::Body body, rpc::RpcCallback done) {
                        if (!can_send) return false;
                        sent.push_back(Sent{to, to_id, std::move(body), std::move(done)});
                        return true;
                      }};
  std::optional<LookupResult> result;
};

TEST_CASE("a lookup asks the closest contacts and finishes once they have all answered", "[unit]") {
  DriverFixture f;
  REQUIRE(f.Start());
  CHECK(f.stats.lookups_started == 1);
  CHECK(f.driver.size() == 1);
  REQUIRE(f.sent.size() == f.config.alpha);
  CHECK(std::holds_alternative<wire::FindNodeBody>(f.sent[0].body));
  for (size_t i = 0; i < f.peers.size(); ++i) {
    REQUIRE(i < f.sent.size());
    CHECK_FALSE(f.result.has_value());
    f.Answer(i);
  }
  REQUIRE(f.result.has_value());
  CHECK(f.result->closest.size() == f.peers.size());
  CHECK(f.stats.lookups_completed == 1);
  CHECK(f.driver.size() == 0);
}

TEST_CASE("a lookup ends at once when its reply hook says it found enough", "[unit]") {
  DriverFixture f;
  LookupOptions options;
  options.request = [](const Key& target) { return wire::FindValueBody{target, 0, {}}; };
  size_t replies = 0;
  options.on_reply = [&](transport::TimePoint, const Contact&, const wire::Message&) {
    return ++replies == 1;
  };
  REQUIRE(f.Start(std::move(options)));
  CHECK(std::holds_alternative<wire::FindValueBody>(f.sent[0].body));
  f.Answer(0);
  REQUIRE(f.result.has_value());
  CHECK(f.result->closest.size() == 1);
  // A late answer to the finished lookup changes nothing.
  f.Answer(1);
  CHECK(replies == 1);
}

TEST_CASE("a lookup whose requests cannot be sent ends instead of stalling", "[unit]") {
  DriverFixture f;
  f.can_send = false;
  REQUIRE(f.Start());
  REQUIRE(f.result.has_value());
  CHECK(f.result->closest.empty());
}

TEST_CASE("a slow query is passed by for the next contact", "[unit]") {
  DriverFixture f;
  REQUIRE(f.Start());
  REQUIRE(f.sent.size() == 3);
  const transport::TimePoint slow = f.driver.NextDeadline();
  REQUIRE(slow < transport::kTimeNever);
  f.now = slow;
  f.driver.OnTimer(f.now);
  CHECK(f.sent.size() > 3);
  CHECK_FALSE(f.result.has_value());
}

TEST_CASE("lookups beyond lookups_max are refused, and FinishAll ends the running ones", "[unit]") {
  DriverFixture f;
  f.config.lookups_max = 1;
  REQUIRE(f.Start());
  CHECK_FALSE(f.driver.Start(f.now, Key::Sha256("other"), {}, [](const LookupResult&) {
    FAIL("a refused lookup's callback is never called");
  }));
  CHECK(f.stats.lookups_refused == 1);
  f.driver.FinishAll(f.now);
  REQUIRE(f.result.has_value());
  CHECK(f.result->closest.empty());  // nobody had answered
  CHECK(f.driver.size() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia
