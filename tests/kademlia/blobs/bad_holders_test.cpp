// BadHolders: corrupt (digest, holder) pairs remembered for a while, bounded.
#include "kademlia/blobs/bad_holders.h"

#include <catch2/catch.hpp>

namespace skillnode::kademlia::blobs {
namespace {

wire::BlobDigest Digest(uint8_t fill) {
  wire::BlobDigest digest{};
  digest.fill(fill);
  return digest;
}

TEST_CASE("a corrupt holder is remembered for its digest only, and only for the memory's length",
          "[unit]") {
  BadHolders bad(4, transport::Seconds(60));
  const transport::TimePoint t0 = transport::kTimeZero + transport::Seconds(10);
  const NodeId holder = Key::Sha256("holder");
  bad.Note(t0, Digest(1), holder);
  CHECK(bad.Has(t0 + transport::Seconds(59), Digest(1), holder));
  CHECK_FALSE(bad.Has(t0, Digest(2), holder));
  CHECK_FALSE(bad.Has(t0, Digest(1), Key::Sha256("another")));
  CHECK_FALSE(bad.Has(t0 + transport::Seconds(60), Digest(1), holder));
  bad.Sweep(t0 + transport::Seconds(60));
  CHECK(bad.size() == 0);
}

TEST_CASE("bad holders past the bound make room: the expired first, then the smallest pair",
          "[unit]") {
  BadHolders bad(2, transport::Seconds(60));
  const transport::TimePoint t0 = transport::kTimeZero;
  bad.Note(t0, Digest(1), Key::Sha256("a"));
  bad.Note(t0 + transport::Seconds(30), Digest(2), Key::Sha256("b"));
  // The first has expired by now: it goes, the second stays.
  bad.Note(t0 + transport::Seconds(61), Digest(3), Key::Sha256("c"));
  CHECK(bad.size() == 2);
  CHECK(bad.Has(t0 + transport::Seconds(61), Digest(2), Key::Sha256("b")));
  // Nothing has expired: the smallest pair (digest 2) goes.
  bad.Note(t0 + transport::Seconds(62), Digest(4), Key::Sha256("d"));
  CHECK(bad.size() == 2);
  CHECK_FALSE(bad.Has(t0 + transport::Seconds(62), Digest(2), Key::Sha256("b")));
  CHECK(bad.Has(t0 + transport::Seconds(62), Digest(3), Key::Sha256("c")));
  CHECK(bad.Has(t0 + transport::Seconds(62), Digest(4), Key::Sha256("d")));
}

}  // namespace
}  // namespace skillnode::kademlia::blobs
