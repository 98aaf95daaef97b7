// PeerDirectory: one stored record per distinct (id, key, address), counted holders, and routing
// tables that share one directory yet each see only what they learnt themselves.
#include "kademlia/routing/peer_directory.h"

#include <catch2/catch.hpp>

#include "kademlia/routing/routing_table.h"
#include "support/routing_table_util.h"

namespace skillnode::kademlia::routing {
namespace {

using namespace routing_test;  // NOLINT: test helpers

PeerRecord RecordOf(const Contact& c) { return {c.id, c.public_key, c.endpoint}; }

TEST_CASE("a peer directory stores a record once and forgets it with its last holder", "[unit]") {
  PeerDirectory directory(HashKey{});
  const PeerRecord a = RecordOf(Far(1));
  const PeerDirectory::Ref first = directory.Acquire(a);
  const PeerDirectory::Ref second = directory.Acquire(a);
  CHECK(first == second);
  directory.Share(first);
  CHECK(directory.size() == 1);
  CHECK(directory.references() == 3);
  CHECK(directory.record(first) == a);

  // The same id at another address, or with its key learnt, is another record.
  PeerRecord moved = a;
  moved.endpoint = transport::Endpoint(*transport::Address::Parse("198.51.100.7"), 7000);
  PeerRecord keyed = a;
  keyed.key[0] = 0xab;
  const PeerDirectory::Ref at_moved = directory.Acquire(moved);
  const PeerDirectory::Ref at_keyed = directory.Acquire(keyed);
  CHECK(at_moved != first);
  CHECK(at_keyed != first);
  CHECK(at_keyed != at_moved);
  CHECK(directory.size() == 3);
  CHECK(directory.record(first) == a);  // unchanged by its neighbours under the same id

  for (int i = 0; i < 3; ++i) directory.Release(first);
  CHECK(directory.size() == 2);
  directory.Release(at_moved);
  directory.Release(at_keyed);
  CHECK(directory.size() == 0);
  CHECK(directory.references() == 0);
  // A forgotten record's place is reused: the slab does not grow.
  const PeerDirectory::Ref again = directory.Acquire(moved);
  CHECK(again < 3);
  CHECK(directory.record(again) == moved);
  directory.Release(again);
  CHECK(directory.size() == 0);
}

TEST_CASE("tables sharing a peer directory keep their own view of a shared peer", "[unit]") {
  PeerDirectory directory(HashKey{});
  const RoutingConfig config = SmallConfig();
  {
    RoutingTable one(Self(), config, &directory);
    RoutingTable two(Key::Sha256("another self"), config, &directory);
    Contact peer = Far(1);
    REQUIRE(one.Heard(peer, kStart).outcome == InsertOutcome::kAdded);
    REQUIRE(two.Heard(peer, kStart).outcome == InsertOutcome::kAdded);
    CHECK(directory.size() == 1);  // one record, two holders
    CHECK(directory.references() == 2);

    // Table one learns the peer's key and a new address; table two still knows neither.
    Contact learnt = peer;
    learnt.public_key[0] = 0xab;
    learnt.endpoint = transport::Endpoint(*transport::Address::Parse("198.51.100.7"), 7000);
    REQUIRE(one.Heard(learnt, kStart + transport::Seconds(5)).outcome == InsertOutcome::kUpdated);
    CHECK(directory.size() == 2);
    CHECK(one.Find(peer.id)->public_key[0] == 0xab);
    CHECK(one.Find(peer.id)->endpoint == learnt.endpoint);
    CHECK(!two.Find(peer.id)->key_known());
    CHECK(two.Find(peer.id)->endpoint == peer.endpoint);
    CHECK(one.Find(peer.id)->last_seen == kStart + transport::Seconds(5));
    CHECK(two.Find(peer.id)->last_seen == kStart);

    // Dropping it from one table leaves the other's record in place.
    REQUIRE(one.Remove(peer.id));
    CHECK(directory.size() == 1);
    CHECK(two.Find(peer.id)->endpoint == peer.endpoint);
  }
  // The tables gave back every reference when they went.
  CHECK(directory.references() == 0);
  CHECK(directory.size() == 0);
}

TEST_CASE("a table's own directory holds exactly its contacts and replacements", "[unit]") {
  PeerDirectory directory(HashKey{});
  RoutingConfig config = SmallConfig();
  config.replacement_cache_size = 2;
  RoutingTable table(Self(), config, &directory);
  for (int i = 0; i < 40; ++i) {
    table.Heard(Far(i, "10.0." + std::to_string(i) + ".1"), kStart + transport::Seconds(i));
  }
  const RoutingTableStats stats = table.stats();
  CHECK(directory.references() == stats.contacts + stats.replacements);
  CHECK(directory.size() == stats.contacts + stats.replacements);
  for (int i = 0; i < 40; ++i) table.Failed(Far(i).id);
  for (int i = 0; i < 40; ++i) table.Failed(Far(i).id);
  for (int i = 0; i < 40; ++i) table.Failed(Far(i).id);
  const RoutingTableStats after = table.stats();
  CHECK(directory.references() == after.contacts + after.replacements);
}

}  // namespace
}  // namespace skillnode::kademlia::routing
