// Joining and rejoining, driven by the fake network's virtual clock: literal and resolved
// peers, back-off while nobody answers, rejoining from saved contacts with every bootstrap
// peer down, and bootstrapping again when the routing table empties.
#include "bootstrap/bootstrapper.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "support/fake_network.h"

namespace skillnode::bootstrap {
namespace {

using testing::FakeNetwork;
using Phase = BootstrapPhase;

class RecordingLogger final : public transport::Logger {
 public:
  bool Enabled(transport::LogLevel) const override { return true; }
  void Log(transport::LogLevel, std::string_view message) override { lines.emplace_back(message); }
  bool Saw(const std::string& needle) const {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
      return line.find(needle) != std::string::npos;
    });
  }
  std::vector<std::string> lines;
};

// Answers names from a table, later (at the next AnswerAll), like a real resolver.
class FakeResolver final : public transport::Resolver {
 public:
  void Resolve(const transport::HostPort& name, transport::ResolveCallback done) override {
    pending_.emplace_back(name, std::move(done));
  }
  void AnswerAll() {
    auto pending = std::exchange(pending_, {});
    for (auto& [name, done] : pending) {
      auto it = names.find(name.host);
      if (it == names.end()) {
        done(transport::Fail(transport::ErrorCode::kNotFound,
                             "cannot resolve " + name.ToString() + ": unknown name"));
        continue;
      }
      std::vector<transport::Endpoint> endpoints;
      for (const transport::Address& a : it->second) endpoints.emplace_back(a, name.port);
      done(endpoints);
    }
  }
  std::map<std::string, std::vector<transport::Address>> names;

 private:
  std::vector<std::pair<transport::HostPort, transport::ResolveCallback>> pending_;
};

kademlia::KademliaConfig FastRefresh() {
  kademlia::KademliaConfig config;
  config.routing.bucket_refresh_interval = transport::Seconds(30);
  return config;
}

struct Harness {
  FakeNetwork net{2024};
  FakeResolver resolver;
  RecordingLogger logger;
  std::vector<std::unique_ptr<Bootstrapper>> bootstrappers;

  Bootstrapper& Add(size_t node, std::vector<transport::HostPort> peers) {
    BootstrapConfig config;
    config.peers = std::move(peers);
    bootstrappers.push_back(
        std::make_unique<Bootstrapper>(config, net.node(node), resolver, net.rng(), logger));
    return *bootstrappers.back();
  }

  // Runs network and bootstrappers for `duration`; `each` sees every step.
  template <typename F>
  void Run(transport::Duration duration, F each) {
    const transport::TimePoint end = net.now() + duration;
    while (net.now() < end) {
      resolver.AnswerAll();
      transport::TimePoint next = end;
      for (const auto& b : bootstrappers) next = std::min(next, b->NextDeadline());
      // Join results arrive inside RunUntil; stepping at most 100 ms lets the bootstrapper see
      // them about as soon as the daemon's loop would.
      next = std::clamp(next, net.now() + transport::Millis(1),
                        std::min(end, net.now() + transport::Millis(100)));
      net.RunUntil(next);
      for (const auto& b : bootstrappers) b->OnTimer(net.now());
      each();
    }
  }
  void Run(transport::Duration duration) {
    Run(duration, [] {});
  }
};

transport::HostPort Literal(const transport::Endpoint& endpoint) {
  return transport::HostPort::Parse(endpoint.ToString()).value();
}

TEST_CASE("a node joins through a bootstrap peer given as a literal address", "[unit]") {
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  auto& b = h.Add(1, {Literal(h.net.endpoint(0))});
  b.Start(h.net.now(), {});
  CHECK(b.phase() == Phase::kJoining);
  h.Run(transport::Seconds(5));
  CHECK(b.phase() == Phase::kJoined);
  CHECK(b.attempts() == 1);
  CHECK(h.net.node(1).routing_table().size() == 1);
  CHECK(h.logger.Saw("joining through bootstrap peers " + h.net.endpoint(0).ToString()));
}

TEST_CASE("peer names are resolved; a name that fails is logged by name and skipped", "[unit]") {
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  h.resolver.names["seed.example"] = {h.net.endpoint(0).address()};
  const uint16_t port = h.net.endpoint(0).port();
  auto& b = h.Add(
      1, {transport::HostPort{"missing.example", port}, transport::HostPort{"seed.example", port}});
  b.Start(h.net.now(), {});
  CHECK(b.phase() == Phase::kResolving);
  h.Run(transport::Seconds(5));
  CHECK(b.phase() == Phase::kJoined);
  CHECK(h.logger.Saw("peer missing.example:" + std::to_string(port) + ": cannot resolve"));
}

TEST_CASE("unreachable peers are retried with exponential back-off and jitter", "[unit]") {
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  h.net.SetSilent(0, true);
  auto& b = h.Add(1, {Literal(h.net.endpoint(0))});
  b.Start(h.net.now(), {});
  std::vector<double> delays_s;
  transport::TimePoint last_retry = transport::kTimeNever;
  h.Run(transport::Seconds(200), [&] {
    if (b.retry_at() != transport::kTimeNever && b.retry_at() != last_retry) {
      last_retry = b.retry_at();
      delays_s.push_back(transport::ToMillis(b.retry_at() - h.net.now()) / 1000.0);
    }
  });
  CHECK(b.phase() != Phase::kJoined);
  REQUIRE(delays_s.size() >= 5);
  CHECK(delays_s[0] >= 0.75);
  CHECK(delays_s[0] <= 1.25);
  for (size_t i = 1; i < delays_s.size(); ++i) {
    INFO("delay " << i << ": " << delays_s[i - 1] << " s then " << delays_s[i] << " s");
    CHECK(delays_s[i] / delays_s[i - 1] >= 2 * 0.75 / 1.25);
    CHECK(delays_s[i] / delays_s[i - 1] <= 2 * 1.25 / 0.75);
  }
  CHECK(h.logger.Saw("no bootstrap peer answered; retrying in"));
  const uint64_t attempts = b.attempts();
  h.net.SetSilent(0, false);  // the peer comes back: the next retry joins
  h.Run(transport::Seconds(300));
  CHECK(b.phase() == Phase::kJoined);
  CHECK(b.attempts() == attempts + 1);
}

TEST_CASE("a restarted node rejoins from saved contacts while every bootstrap peer is down",
          "[unit]") {
  Harness h;
  for (int i = 0; i < 6; ++i) h.net.AddNode({});
  for (size_t i = 1; i < 6; ++i) h.Add(i, {Literal(h.net.endpoint(0))}).Start(h.net.now(), {});
  h.Run(transport::Seconds(30));
  for (size_t i = 1; i < 6; ++i) REQUIRE(h.bootstrappers[i - 1]->phase() == Phase::kJoined);
  // "Restart" node 5: a new node with node 5's saved table, the bootstrap peer now down.
  const auto saved = h.net.node(5).routing_table().Export();
  REQUIRE(saved.size() >= 2);
  h.net.SetSilent(0, true);
  h.net.SetSilent(5, true);
  h.net.AddNode({});
  auto& restarted = h.Add(6, {Literal(h.net.endpoint(0))});
  restarted.Start(h.net.now(), saved);
  CHECK(restarted.phase() == Phase::kRemembered);
  h.Run(transport::Seconds(10));
  CHECK(restarted.phase() == Phase::kJoined);
  CHECK(restarted.attempts() == 0);  // the bootstrap peer was never needed
  CHECK(h.net.node(6).routing_table().size() >= 3);
  CHECK(h.logger.Saw("remembered contacts"));
}

TEST_CASE("a node whose routing table empties bootstraps again", "[unit]") {
  Harness h;
  h.net.AddNode(FastRefresh());
  h.net.AddNode(FastRefresh());
  auto& b = h.Add(1, {Literal(h.net.endpoint(0))});
  b.Start(h.net.now(), {});
  h.Run(transport::Seconds(5));
  REQUIRE(b.phase() == Phase::kJoined);
  h.net.SetSilent(0, true);  // the only peer goes away: refreshes time out, it is evicted
  h.Run(transport::Seconds(300));
  CHECK(h.net.node(1).routing_table().size() == 0);
  CHECK(h.logger.Saw("routing table is empty: bootstrapping again"));
  CHECK(b.phase() == Phase::kWaiting);
  h.net.SetSilent(0, false);
  h.Run(transport::Seconds(600));
  CHECK(b.phase() == Phase::kJoined);
  CHECK(b.joins() == 2);
}

TEST_CASE("with no peers and no saved contacts a node is standalone until others join it",
          "[unit]") {
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  auto& alone = h.Add(0, {});
  alone.Start(h.net.now(), {});
  CHECK(alone.phase() == Phase::kStandalone);
  CHECK(h.logger.Saw("running standalone"));
  h.Run(transport::Seconds(10));
  CHECK(alone.phase() == Phase::kStandalone);
  h.Add(1, {Literal(h.net.endpoint(0))}).Start(h.net.now(), {});
  h.Run(transport::Seconds(10));
  CHECK(alone.phase() == Phase::kJoined);
  CHECK(alone.attempts() == 0);
}

TEST_CASE("a joined node looks up its own id once more after the settle delay", "[unit]") {
  // Nodes that join at the same moment can miss each other in their first lookup (neither
  // is verified by the seed yet); the second lookup, seconds later, introduces them.
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  auto& b = h.Add(1, {Literal(h.net.endpoint(0))});
  b.Start(h.net.now(), {});
  h.Run(transport::Millis(500));
  REQUIRE(b.phase() == Phase::kJoined);
  const uint64_t lookups = h.net.node(1).stats().lookups_started;
  h.Run(transport::Seconds(2));
  CHECK(h.net.node(1).stats().lookups_started == lookups);
  h.Run(transport::Seconds(2));
  CHECK(h.net.node(1).stats().lookups_started == lookups + 1);
  h.Run(transport::Seconds(20));
  CHECK(h.net.node(1).stats().lookups_started == lookups + 1);  // once only
}

TEST_CASE("after Stop nothing more happens, and late answers are ignored", "[unit]") {
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  h.resolver.names["seed.example"] = {h.net.endpoint(0).address()};
  auto& b = h.Add(1, {transport::HostPort{"seed.example", h.net.endpoint(0).port()}});
  b.Start(h.net.now(), {});
  b.Stop();
  h.Run(transport::Seconds(5));  // the resolver answers after Stop
  CHECK(b.phase() == Phase::kStopped);
  CHECK(b.NextDeadline() == transport::kTimeNever);
  CHECK(h.net.node(1).routing_table().size() == 0);
}

TEST_CASE("new peers set on a standalone or waiting node are tried at once", "[unit]") {
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  h.net.AddNode({});
  h.net.SetSilent(0, true);
  auto& alone = h.Add(1, {});
  alone.Start(h.net.now(), {});
  REQUIRE(alone.phase() == Phase::kStandalone);
  alone.SetPeers(h.net.now(), {Literal(h.net.endpoint(2))});
  CHECK(h.logger.Saw("new bootstrap peers: trying them now"));
  h.Run(transport::Seconds(5));
  CHECK(alone.phase() == Phase::kJoined);
  CHECK(alone.peers().size() == 1);

  // A node retrying a silent peer switches to the new one without waiting out its back-off.
  auto& waiting = h.Add(0, {Literal(h.net.endpoint(1))});
  h.net.SetSilent(0, false);
  h.net.SetSilent(1, true);
  waiting.Start(h.net.now(), {});
  for (int i = 0; i < 60 && waiting.phase() != Phase::kWaiting; ++i) h.Run(transport::Millis(500));
  REQUIRE(waiting.phase() == Phase::kWaiting);
  const uint64_t attempts = waiting.attempts();
  waiting.SetPeers(h.net.now(), {Literal(h.net.endpoint(2))});
  CHECK(waiting.phase() != Phase::kWaiting);  // the attempt started now, not at retry_at
  CHECK(waiting.attempts() == attempts + 1);
  h.Run(transport::Seconds(5));
  CHECK(waiting.phase() == Phase::kJoined);
}

TEST_CASE("new peers set on a joined node wait for the next attempt", "[unit]") {
  Harness h;
  h.net.AddNode({});
  h.net.AddNode({});
  h.net.AddNode({});
  auto& b = h.Add(1, {Literal(h.net.endpoint(0))});
  b.Start(h.net.now(), {});
  h.Run(transport::Seconds(5));
  REQUIRE(b.phase() == Phase::kJoined);
  const uint64_t attempts = b.attempts();
  b.SetPeers(h.net.now(), {Literal(h.net.endpoint(2))});
  h.Run(transport::Seconds(5));
  CHECK(b.attempts() == attempts);
  CHECK(h.logger.Saw("new bootstrap peers: used from the next attempt"));
  CHECK(b.peers() == std::vector<transport::HostPort>{Literal(h.net.endpoint(2))});
}

}  // namespace
}  // namespace skillnode::bootstrap
