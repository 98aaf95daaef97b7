// HolePuncher (kademlia/reach/hole_puncher.h) over fake lookups and requests: the path follows
// what the lookup found (the node itself: a direct PING; a relay naming it in "cl": PUNCH
// through the relay, then direct PINGs; a client of this node's own: a PING, no lookup), falls back
// to the relay when the punch is refused or its direct PINGs go unanswered, and says unreachable
// when nothing answers; each Connect ends once, at most connects_max run; the client's side PINGs
// the asker before it answers PUNCHED, within answers_per_second.
#include "kademlia/reach/hole_puncher.h"

#include <catch2/catch.hpp>
#include <optional>
#include <vector>

namespace skillnode::kademlia::reach {
namespace {

const transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(50);

transport::Endpoint Ep(const char* text) { return *transport::Endpoint::Parse(text); }

struct Sent {
  transport::Endpoint to;
  NodeId to_id;
  wire::Body body;
  rpc::RpcCallback done;
  std::optional<transport::Endpoint> relay;
};

struct PuncherFixture {
  explicit PuncherFixture(PunchConfig config = {}) : puncher(config, Actions()) {}

  HolePuncher::Actions Actions() {
    return HolePuncher::Actions{
        .lookup =
            [this](transport::TimePoint, const Key& target, LookupOptions options,
                   LookupCallback done) {
              if (!lookups_accepted) return false;
              looked_up.push_back(target);
              on_reply = std::move(options.on_reply);
              lookup_done = std::move(done);
              return true;
            },
        .send =
            [this](transport::TimePoint, const transport::Endpoint& to, const NodeId& to_id,
                   wire::Body body, rpc::RpcCallback done,
                   std::optional<transport::Endpoint> relay) {
              sent.push_back(Sent{to, to_id, std::move(body), std::move(done), relay});
              return true;
            }};
  }

  bool Connect(std::optional<transport::Endpoint> client_of_ours = std::nullopt) {
    return puncher.Connect(
        kNow, target, client_of_ours,
        [this](const HolePuncher::Connection& connection) { results.push_back(connection); });
  }
  // The lookup hears `reply` from `from`; returns what the hook said (end the lookup).
  bool Hear(const NodeId& from_id, const transport::Endpoint& from, wire::Body reply) {
    Contact contact;
    contact.id = from_id;
    contact.endpoint = from;
    return on_reply(kNow, contact, wire::Message{wire::Header{}, std::move(reply)});
  }
  void FinishLookup() {
    LookupResult result;
    result.target = target;
    result.finished = kNow + transport::Seconds(1);
    lookup_done(result);
  }
  // Answers the last request sent with `reply`, or with a timeout when unset.
  void Answer(std::optional<wire::Body> reply, transport::Duration rtt = transport::Millis(30)) {
    REQUIRE_FALSE(sent.empty());
    rpc::RpcCallback done = std::move(sent.back().done);
    REQUIRE(done);
    rpc::RpcResult result;
    result.now = kNow + transport::Seconds(2);
    result.rtt = rtt;
    result.from = sent.back().to;
    wire::Message message{wire::Header{}, reply.value_or(wire::PingBody{})};
    if (reply) {
      result.status = rpc::RpcStatus::kReplied;
      result.reply = &message;
    }
    done(result);
  }

  const NodeId target = Key::Sha256("client");
  const NodeId relay_id = Key::Sha256("relay");
  const transport::Endpoint target_at = Ep("203.0.113.7:40001");
  const transport::Endpoint relay_at = Ep("198.51.100.2:6881");
  bool lookups_accepted = true;
  std::vector<Key> looked_up;
  std::function<bool(transport::TimePoint, const Contact&, const wire::Message&)> on_reply;
  LookupCallback lookup_done;
  std::vector<Sent> sent;
  std::vector<HolePuncher::Connection> results;
  HolePuncher puncher;
};

wire::NodesBody Naming(const NodeId& client, const transport::Endpoint& at) {
  wire::NodesBody nodes;
  nodes.relayed.push_back(wire::WireContact{client, at});
  return nodes;
}

TEST_CASE("a node that answers its own lookup is pinged directly", "[unit]") {
  PuncherFixture f;
  REQUIRE(f.Connect());
  REQUIRE(f.looked_up == std::vector<Key>{f.target});
  CHECK_FALSE(f.Hear(f.relay_id, f.relay_at, wire::NodesBody{}));  // nothing yet: go on
  CHECK(f.Hear(f.target, f.target_at, wire::NodesBody{}));         // found: stop
  f.FinishLookup();
  REQUIRE(f.sent.size() == 1);
  CHECK(std::holds_alternative<wire::PingBody>(f.sent[0].body));
  CHECK(f.sent[0].to == f.target_at);
  CHECK_FALSE(f.sent[0].relay);
  f.Answer(wire::PongBody{}, transport::Millis(12));
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].path == HolePuncher::Path::kDirect);
  CHECK(f.results[0].endpoint == f.target_at);
  CHECK_FALSE(f.results[0].relay);
  CHECK(f.results[0].rtt == transport::Millis(12));
  CHECK(f.puncher.stats().direct == 1);
  CHECK(f.puncher.running() == 0);
}

TEST_CASE("a client of this node's own is pinged where its reservation is, with no lookup",
          "[unit]") {
  PuncherFixture f;
  REQUIRE(f.Connect(f.target_at));
  CHECK(f.looked_up.empty());
  REQUIRE(f.sent.size() == 1);
  CHECK(std::holds_alternative<wire::PingBody>(f.sent[0].body));
  CHECK(f.sent[0].to == f.target_at);
  CHECK_FALSE(f.sent[0].relay);
  f.Answer(wire::PongBody{});
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].path == HolePuncher::Path::kDirect);
  CHECK(f.results[0].endpoint == f.target_at);
}

TEST_CASE("a client named by its relay is punched: PUNCH through the relay, then a direct PING",
          "[unit]") {
  PuncherFixture f;
  REQUIRE(f.Connect());
  CHECK(f.Hear(f.relay_id, f.relay_at, Naming(f.target, f.target_at)));
  f.FinishLookup();
  REQUIRE(f.sent.size() == 1);
  CHECK(std::holds_alternative<wire::PunchBody>(f.sent[0].body));
  CHECK(f.sent[0].to == f.target_at);
  CHECK(f.sent[0].to_id == f.target);
  CHECK(f.sent[0].relay == f.relay_at);
  f.Answer(wire::PunchedBody{});
  REQUIRE(f.sent.size() == 2);
  CHECK(std::holds_alternative<wire::PingBody>(f.sent[1].body));
  CHECK(f.sent[1].to == f.target_at);
  CHECK_FALSE(f.sent[1].relay);  // directly, past both NATs now
  f.Answer(wire::PongBody{});
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].path == HolePuncher::Path::kPunched);
  CHECK(f.results[0].endpoint == f.target_at);
  REQUIRE(f.results[0].relay);
  CHECK(f.results[0].relay->id == f.relay_id);
  CHECK(f.puncher.stats().punches_sent == 1);
  CHECK(f.puncher.stats().punches_failed == 0);
  CHECK(f.puncher.stats().punched == 1);
}

TEST_CASE("unanswered direct PINGs after PUNCHED fall back to the relay", "[unit]") {
  PunchConfig config;
  config.direct_pings = 2;
  PuncherFixture f(config);
  REQUIRE(f.Connect());
  f.Hear(f.relay_id, f.relay_at, Naming(f.target, f.target_at));
  f.FinishLookup();
  f.Answer(wire::PunchedBody{});
  f.Answer(std::nullopt);  // the first direct PING times out (a NAT with random ports)
  REQUIRE(f.sent.size() == 3);
  CHECK_FALSE(f.sent[2].relay);  // the second is direct too
  f.Answer(std::nullopt);
  REQUIRE(f.sent.size() == 4);
  CHECK(std::holds_alternative<wire::PingBody>(f.sent[3].body));
  CHECK(f.sent[3].relay == f.relay_at);
  f.Answer(wire::PongBody{});
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].path == HolePuncher::Path::kRelayed);
  CHECK(f.puncher.stats().punches_failed == 1);
  CHECK(f.puncher.stats().relayed == 1);
}

TEST_CASE("a refused punch goes through the relay, and a silent client is unreachable", "[unit]") {
  PuncherFixture f;
  REQUIRE(f.Connect());
  f.Hear(f.relay_id, f.relay_at, Naming(f.target, f.target_at));
  f.FinishLookup();
  f.Answer(wire::ErrorBody{static_cast<uint16_t>(wire::ErrorReplyCode::kRateLimited), "busy"});
  REQUIRE(f.sent.size() == 2);
  CHECK(f.sent[1].relay == f.relay_at);
  f.Answer(std::nullopt);
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].path == HolePuncher::Path::kUnreachable);
  CHECK_FALSE(f.results[0].endpoint);
  CHECK(f.puncher.stats().punches_failed == 1);
  CHECK(f.puncher.stats().unreachable == 1);
}

TEST_CASE("a lookup that finds neither the node nor a relay of its ends unreachable at once",
          "[unit]") {
  PuncherFixture f;
  REQUIRE(f.Connect());
  // A relay naming another client says nothing of this one.
  CHECK_FALSE(f.Hear(f.relay_id, f.relay_at, Naming(Key::Sha256("other"), f.target_at)));
  f.FinishLookup();
  CHECK(f.sent.empty());
  REQUIRE(f.results.size() == 1);
  CHECK(f.results[0].path == HolePuncher::Path::kUnreachable);
}

TEST_CASE("at most connects_max run, and a refused lookup refuses the connect", "[unit]") {
  PunchConfig config;
  config.connects_max = 1;
  PuncherFixture f(config);
  REQUIRE(f.Connect());
  CHECK_FALSE(f.Connect());
  CHECK(f.puncher.running() == 1);
  f.FinishLookup();
  CHECK(f.puncher.running() == 0);
  f.lookups_accepted = false;
  CHECK_FALSE(f.Connect());
  CHECK(f.puncher.running() == 0);
  CHECK(f.results.size() == 1);  // only the first, once
  CHECK(f.puncher.stats().connects == 1);
}

TEST_CASE("a punched client PINGs the asker before it answers, within answers_per_second",
          "[unit]") {
  PunchConfig config;
  config.answers_per_second = 1;  // a burst of 2
  PuncherFixture f(config);
  const transport::Endpoint asker_at = Ep("192.0.2.9:51000");
  const NodeId asker = Key::Sha256("asker");
  for (int i = 0; i < 2; ++i) {
    const wire::Body answer = f.puncher.OnPunch(kNow, asker_at, asker);
    CHECK(std::holds_alternative<wire::PunchedBody>(answer));
  }
  REQUIRE(f.sent.size() == 2);
  CHECK(std::holds_alternative<wire::PingBody>(f.sent[0].body));
  CHECK(f.sent[0].to == asker_at);
  CHECK(f.sent[0].to_id == asker);
  CHECK_FALSE(f.sent[0].relay);
  const wire::Body refused = f.puncher.OnPunch(kNow, asker_at, asker);
  const auto* error = std::get_if<wire::ErrorBody>(&refused);
  REQUIRE(error != nullptr);
  CHECK(error->code == static_cast<uint16_t>(wire::ErrorReplyCode::kRateLimited));
  CHECK(f.sent.size() == 2);  // no PING for a refused punch
  CHECK(std::holds_alternative<wire::PunchedBody>(
      f.puncher.OnPunch(kNow + transport::Seconds(1), asker_at, asker)));
  CHECK(f.puncher.stats().punches_answered == 3);
  CHECK(f.puncher.stats().punches_refused == 1);
}

}  // namespace
}  // namespace skillnode::kademlia::reach
