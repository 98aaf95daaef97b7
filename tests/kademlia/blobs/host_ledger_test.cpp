// HostLedger: hostings for clients, renewed and expired, within the limits per requester
// address and in all.
#include "kademlia/blobs/host_ledger.h"

#include <catch2/catch.hpp>

namespace skillnode::kademlia::blobs {
namespace {

using Outcome = HostLedger::Outcome;

wire::BlobDigest Digest(uint8_t b) {
  wire::BlobDigest out{};
  out.fill(b);
  return out;
}

transport::Address Ip(uint8_t last) { return transport::Address::V4({203, 0, 113, last}); }

transport::TimePoint At(int seconds) { return transport::kTimeZero + transport::Seconds(seconds); }

TEST_CASE("a hosting is added, renewed by asking again, and expires with its lifetime", "[unit]") {
  HostLedger ledger(HostLimits{});
  CHECK(ledger.Take(At(0), Digest(1), 5000, Ip(1), transport::Seconds(60)) == Outcome::kAdded);
  CHECK(ledger.entries() == 1);
  CHECK(ledger.bytes() == 5000);
  CHECK(ledger.Take(At(50), Digest(1), 5000, Ip(1), transport::Seconds(60)) == Outcome::kRenewed);
  // Renewed at 50 s: alive at 100 s, gone at 110 s.
  CHECK(ledger.Expire(At(100)) == 0);
  CHECK(ledger.Expire(At(110)) == 1);
  CHECK(ledger.entries() == 0);
  CHECK(ledger.bytes() == 0);
  // The same digest for another address is a hosting of its own.
  CHECK(ledger.Take(At(120), Digest(1), 5000, Ip(1), transport::Seconds(60)) == Outcome::kAdded);
  CHECK(ledger.Take(At(120), Digest(1), 5000, Ip(2), transport::Seconds(60)) == Outcome::kAdded);
  CHECK(ledger.entries() == 2);
}

TEST_CASE("a lifetime is capped at lifetime_max", "[unit]") {
  HostLimits limits;
  limits.lifetime_max = transport::Seconds(100);
  HostLedger ledger(limits);
  CHECK(ledger.Take(At(0), Digest(1), 10, Ip(1), transport::Seconds(100000)) == Outcome::kAdded);
  CHECK(ledger.Expire(At(99)) == 0);
  CHECK(ledger.Expire(At(100)) == 1);
}

TEST_CASE("one address gets at most its blobs and bytes; others still get theirs", "[unit]") {
  HostLimits limits;
  limits.blobs_per_address = 2;
  limits.bytes_per_address = 1000;
  HostLedger ledger(limits);
  CHECK(ledger.Take(At(0), Digest(1), 400, Ip(1), transport::Seconds(60)) == Outcome::kAdded);
  // 400 + 700 passes 1,000 bytes.
  CHECK(ledger.Take(At(0), Digest(2), 700, Ip(1), transport::Seconds(60)) == Outcome::kAddressFull);
  CHECK(ledger.Take(At(0), Digest(2), 600, Ip(1), transport::Seconds(60)) == Outcome::kAdded);
  // Two blobs already, though 0 bytes would fit.
  CHECK(ledger.Take(At(0), Digest(3), 0, Ip(1), transport::Seconds(60)) == Outcome::kAddressFull);
  // A blob larger than the whole allowance, from a fresh address.
  CHECK(ledger.Take(At(0), Digest(4), 1001, Ip(2), transport::Seconds(60)) ==
        Outcome::kAddressFull);
  CHECK(ledger.Take(At(0), Digest(4), 1000, Ip(2), transport::Seconds(60)) == Outcome::kAdded);
  // A renewal of a hosting at the limit succeeds.
  CHECK(ledger.Take(At(10), Digest(1), 400, Ip(1), transport::Seconds(60)) == Outcome::kRenewed);
  // Dropping one (its fetch failed) makes room again.
  ledger.Drop(Digest(1), Ip(1));
  CHECK(ledger.Take(At(10), Digest(3), 400, Ip(1), transport::Seconds(60)) == Outcome::kAdded);
  CHECK(ledger.bytes() == 600 + 1000 + 400);
}

TEST_CASE("past hosted_max a newcomer is refused until a hosting expires", "[unit]") {
  HostLimits limits;
  limits.hosted_max = 2;
  HostLedger ledger(limits);
  CHECK(ledger.Take(At(0), Digest(1), 10, Ip(1), transport::Seconds(30)) == Outcome::kAdded);
  CHECK(ledger.Take(At(0), Digest(2), 10, Ip(2), transport::Seconds(60)) == Outcome::kAdded);
  CHECK(ledger.Take(At(10), Digest(3), 10, Ip(3), transport::Seconds(60)) == Outcome::kFull);
  CHECK(ledger.entries() == 2);
  // The first expired at 30 s: a newcomer takes its place.
  CHECK(ledger.Take(At(31), Digest(3), 10, Ip(3), transport::Seconds(60)) == Outcome::kAdded);
  CHECK(ledger.entries() == 2);
}

}  // namespace
}  // namespace skillnode::kademlia::blobs
