// DepartedContacts on its own (probe times, doubling, the bound, forgetting), and on the fake
// network: two halves cut apart until each evicted the other find each other again after the
// cut heals, which they do not without it.
#include "kademlia/routing/departed_contacts.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/node.h"
#include "support/fake_network.h"

namespace skillnode::kademlia::routing {
namespace {

using testing::FakeNetwork;

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

Contact Departed(const std::string& name) {
  return Contact{Key::Sha256(name), *transport::Endpoint::Parse("10.0.0.1:6881"), {}, kStart, 3};
}

RoutingConfig Config() {
  RoutingConfig config;
  config.departed_max = 3;
  config.departed_probe_after = transport::Seconds(5);
  config.departed_keep = transport::Seconds(60);
  config.departed_probe_spacing = transport::Seconds(1);
  return config;
}

TEST_CASE("a departed contact is probed after probe_after, then at doubling intervals", "[unit]") {
  const RoutingConfig config = Config();
  DepartedContacts departed(config);
  CHECK(departed.NextDue() == transport::kTimeNever);
  departed.Add(Departed("a"), kStart);
  CHECK(departed.NextDue() == kStart + transport::Seconds(5));
  CHECK_FALSE(departed.TakeDue(kStart + transport::Seconds(4)));
  std::vector<transport::Duration> probes;
  for (transport::TimePoint t = kStart; t <= kStart + transport::Seconds(120);
       t += transport::Millis(500)) {
    if (auto contact = departed.TakeDue(t)) {
      CHECK(contact->id == Key::Sha256("a"));
      probes.push_back(t - kStart);
    }
  }
  // 5, 15, 35 s; the next (75 s) is past departed_keep, so the contact is forgotten at 35 s.
  CHECK(probes == std::vector<transport::Duration>{transport::Seconds(5), transport::Seconds(15),
                                                   transport::Seconds(35)});
  CHECK(departed.size() == 0);
}

TEST_CASE("departed contacts are bounded, probed one per spacing, and forgotten when heard",
          "[unit]") {
  const RoutingConfig config = Config();
  DepartedContacts departed(config);
  for (const char* name : {"a", "b", "c", "d"}) departed.Add(Departed(name), kStart);
  CHECK(departed.size() == 3);
  CHECK_FALSE(departed.contains(Key::Sha256("a")));  // the oldest went
  departed.Forget(Key::Sha256("c"));
  CHECK_FALSE(departed.contains(Key::Sha256("c")));
  const transport::TimePoint due = kStart + transport::Seconds(5);
  auto first = departed.TakeDue(due);
  REQUIRE(first);
  CHECK_FALSE(departed.TakeDue(due));  // the spacing holds the other back
  CHECK(departed.NextDue() == due + transport::Seconds(1));
  auto second = departed.TakeDue(due + transport::Seconds(1));
  REQUIRE(second);
  CHECK(second->id != first->id);
  RoutingConfig off = Config();
  off.departed_max = 0;
  DepartedContacts none(off);
  none.Add(Departed("a"), kStart);
  CHECK(none.size() == 0);
}

// Two halves of 15 nodes are cut apart for five minutes while every node keeps looking up,
// so that each evicts most of the other half. The contacts in all tables that belong to the
// other half: before the cut, just before it heals, and a minute after.
struct CrossHalf {
  size_t before = 0;
  size_t cut = 0;
  size_t healed = 0;
};

CrossHalf CrossHalfContacts(size_t departed_max) {
  constexpr size_t kNodes = 30;
  FakeNetwork net(7);
  KademliaConfig config;
  config.routing.bucket_size = 8;
  config.routing.departed_max = departed_max;
  config.routing.bucket_refresh_interval = transport::Seconds(60);
  net.AddNode(config);
  const transport::Endpoint seed = net.endpoint(0);
  for (size_t i = 1; i < kNodes; ++i) net.AddNode(config).Join(net.now(), std::span(&seed, 1), {});
  net.RunFor(transport::Seconds(5 * 60));
  auto cross = [&net] {
    size_t count = 0;
    for (size_t i = 0; i < kNodes; ++i) {
      for (const Contact& contact : net.node(i).routing_table().Export()) {
        for (size_t j = (i + 1) % 2; j < kNodes; j += 2) {
          if (contact.id == net.node(j).id()) ++count;
        }
      }
    }
    return count;
  };
  CrossHalf counts;
  counts.before = cross();
  std::vector<size_t> odd;
  for (size_t i = 1; i < kNodes; i += 2) odd.push_back(i);
  net.Partition(odd);
  for (int round = 0; round < 30; ++round) {
    for (size_t i = 0; i < kNodes; ++i) {
      net.node(i).FindNode(net.now(), Key::Sha256(std::to_string(round * 100 + i)), nullptr);
    }
    net.RunFor(transport::Seconds(10));
  }
  counts.cut = cross();
  net.Heal();
  net.RunFor(transport::Seconds(60));
  counts.healed = cross();
  return counts;
}

TEST_CASE("the halves of a healed partition find each other through departed contacts", "[sim]") {
  const CrossHalf with = CrossHalfContacts(64);
  const CrossHalf without = CrossHalfContacts(0);
  INFO("with departed contacts: " << with.before << " -> " << with.cut << " -> " << with.healed
                                  << "; without: " << without.before << " -> " << without.cut
                                  << " -> " << without.healed);
  // The cut cost a good share of the cross-half contacts either way (the same run until
  // then: departed contacts only ping, and the pings fail).
  CHECK(with.cut * 4 < with.before * 3);
  CHECK(without.cut == with.cut);
  // A minute after the healing, departed contacts brought nine tenths of them back ...
  CHECK(with.healed * 10 >= with.before * 9);
  // ... where nothing else brought more than a few.
  CHECK(without.healed * 10 < with.healed * 7);
}

}  // namespace
}  // namespace skillnode::kademlia::routing
