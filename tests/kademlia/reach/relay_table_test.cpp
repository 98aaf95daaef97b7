// RelayTable: reservations kept, renewed, moved with the client's mapping and refused past
// clients_max; datagrams carried to a client from anyone and from a client to its recent peers
// only; the per-client and total rates; the peer bound; expiry.
#include "kademlia/reach/relay_table.h"

#include <catch2/catch.hpp>
#include <string>

namespace skillnode::kademlia::reach {
namespace {

constexpr transport::TimePoint kStart = transport::kTimeZero + transport::Seconds(1000);

transport::Endpoint At(const std::string& text) { return *transport::Endpoint::Parse(text); }

NodeId Id(uint8_t n) {
  NodeId id;
  id.mutable_bytes()[0] = n;
  return id;
}

RelayLimits Limits() {
  RelayLimits limits;
  limits.clients_max = 2;
  limits.lifetime = transport::Seconds(60);
  limits.messages_per_second = 1.5;  // a burst of 3
  limits.total_per_second = 100;
  limits.peers_per_client = 2;
  limits.peer_life = transport::Seconds(30);
  return limits;
}

TEST_CASE("a relay keeps reservations up to clients_max, renews them and lets them expire",
          "[unit]") {
  RelayTable table(Limits());
  CHECK(table.Keep(kStart, Id(1), At("203.0.113.1:4000")) == RelayTable::KeepOutcome::kAdded);
  CHECK(table.Keep(kStart, Id(2), At("203.0.113.2:4000")) == RelayTable::KeepOutcome::kAdded);
  CHECK(table.Keep(kStart, Id(3), At("203.0.113.3:4000")) == RelayTable::KeepOutcome::kFull);
  CHECK(table.Keep(kStart + transport::Seconds(50), Id(1), At("203.0.113.1:4000")) ==
        RelayTable::KeepOutcome::kRenewed);
  // Client 2's lapses at 60 s; client 1's, renewed at 50 s, lasts to 110 s.
  const transport::TimePoint later = kStart + transport::Seconds(61);
  CHECK(!table.EndpointOf(later, Id(2)));
  CHECK(table.EndpointOf(later, Id(1)) == At("203.0.113.1:4000"));
  CHECK(table.Keep(later, Id(3), At("203.0.113.3:4000")) == RelayTable::KeepOutcome::kAdded);
  CHECK(table.size() == 2);
  CHECK(table.Expire(kStart + transport::Seconds(111)) == 1);
  CHECK(table.ClientAt(kStart + transport::Seconds(111), At("203.0.113.3:4000")) == Id(3));
  table.Release(Id(3));
  CHECK(table.size() == 0);
}

TEST_CASE("a reservation follows its client's new mapping, and one endpoint holds one client",
          "[unit]") {
  RelayTable table(Limits());
  table.Keep(kStart, Id(1), At("203.0.113.1:4000"));
  CHECK(table.Keep(kStart, Id(1), At("203.0.113.1:4001")) == RelayTable::KeepOutcome::kRenewed);
  CHECK(table.EndpointOf(kStart, Id(1)) == At("203.0.113.1:4001"));
  CHECK(!table.ClientAt(kStart, At("203.0.113.1:4000")));
  CHECK(table.ClientAt(kStart, At("203.0.113.1:4001")) == Id(1));
  // Another id at that endpoint (the host restarted with a new identity) takes it over.
  CHECK(table.Keep(kStart, Id(2), At("203.0.113.1:4001")) == RelayTable::KeepOutcome::kAdded);
  CHECK(!table.EndpointOf(kStart, Id(1)));
  CHECK(table.size() == 1);
}

TEST_CASE("a relay carries to a client from anyone and from it to its recent peers only",
          "[unit]") {
  RelayTable table(Limits());
  const transport::Endpoint client = At("203.0.113.1:4000");
  const transport::Endpoint holder = At("198.51.100.7:6881");
  table.Keep(kStart, Id(1), client);
  CHECK(table.ToClient(kStart, Id(9), holder).verdict == RelayTable::Verdict::kNoReservation);
  CHECK(table.FromClient(kStart, client, holder).verdict == RelayTable::Verdict::kNotAPeer);
  const RelayTable::Route in = table.ToClient(kStart, Id(1), holder);
  CHECK(in.verdict == RelayTable::Verdict::kCarry);
  CHECK(in.to == client);
  const RelayTable::Route out = table.FromClient(kStart, client, holder);
  CHECK(out.verdict == RelayTable::Verdict::kCarry);
  CHECK(out.to == holder);
  // A stranger's endpoint is not the client's: it cannot send through the reservation.
  CHECK(table.FromClient(kStart, At("203.0.113.9:4000"), holder).verdict ==
        RelayTable::Verdict::kNoReservation);
  // A peer is one for peer_life after the last datagram carried from it.
  CHECK(table.FromClient(kStart + transport::Seconds(31), client, holder).verdict ==
        RelayTable::Verdict::kNotAPeer);
}

TEST_CASE("a client's peers are bounded, the oldest forgotten first", "[unit]") {
  RelayLimits limits = Limits();
  limits.messages_per_second = 5;
  RelayTable table(limits);
  const transport::Endpoint client = At("203.0.113.1:4000");
  table.Keep(kStart, Id(1), client);
  for (int i = 1; i <= 3; ++i) {
    table.ToClient(kStart, Id(1), At("198.51.100." + std::to_string(i) + ":6881"));
  }
  CHECK(table.FromClient(kStart, client, At("198.51.100.1:6881")).verdict ==
        RelayTable::Verdict::kNotAPeer);
  CHECK(table.FromClient(kStart, client, At("198.51.100.2:6881")).verdict ==
        RelayTable::Verdict::kCarry);
  CHECK(table.FromClient(kStart, client, At("198.51.100.3:6881")).verdict ==
        RelayTable::Verdict::kCarry);
}

TEST_CASE("a relay carries at most the client's rate and the total rate", "[unit]") {
  RelayTable table(Limits());  // 1.5 a second per client, a burst of 3
  const transport::Endpoint holder = At("198.51.100.7:6881");
  table.Keep(kStart, Id(1), At("203.0.113.1:4000"));
  table.Keep(kStart, Id(2), At("203.0.113.2:4000"));
  for (int i = 0; i < 3; ++i) {
    CHECK(table.ToClient(kStart, Id(1), holder).verdict == RelayTable::Verdict::kCarry);
  }
  CHECK(table.ToClient(kStart, Id(1), holder).verdict == RelayTable::Verdict::kRateLimited);
  // The other client's budget is its own.
  CHECK(table.ToClient(kStart, Id(2), holder).verdict == RelayTable::Verdict::kCarry);
  CHECK(table.ToClient(kStart + transport::Seconds(1), Id(1), holder).verdict ==
        RelayTable::Verdict::kCarry);
  CHECK(table.ToClient(kStart + transport::Seconds(1), Id(1), holder).verdict ==
        RelayTable::Verdict::kRateLimited);

  RelayLimits tight = Limits();
  tight.total_per_second = 1;  // a burst of 2
  RelayTable shared(tight);
  shared.Keep(kStart, Id(1), At("203.0.113.1:4000"));
  shared.Keep(kStart, Id(2), At("203.0.113.2:4000"));
  CHECK(shared.ToClient(kStart, Id(1), holder).verdict == RelayTable::Verdict::kCarry);
  CHECK(shared.ToClient(kStart, Id(2), holder).verdict == RelayTable::Verdict::kCarry);
  CHECK(shared.ToClient(kStart, Id(2), holder).verdict == RelayTable::Verdict::kRateLimited);
}

}  // namespace
}  // namespace skillnode::kademlia::reach
