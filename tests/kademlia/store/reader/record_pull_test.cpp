// RecordPull (kademlia/store/reader/record_pull.h): what can be told at once. Inline records are
// verified; a reference is resolved from a copy this node holds, verified or serves (its
// signature checked on the bytes); a reference of a size no large record has is refused; anything
// else must be pulled, and pulls past the bound are refused. Pulls between nodes are in
// skill_dht_large_test.cpp.
#include "kademlia/store/reader/record_pull.h"

#include <catch2/catch.hpp>
#include <string>

#include "store/store_parts_fixture.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::LargeRecord;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

// The reference another node would send for `record` (made by another outbox).
wire::WireRecord ReferenceTo(const SignedRecord& record) {
  StorePartsFixture sender;
  return sender.outbox.ToWire(sender.now, record);
}

TEST_CASE("an inline record is verified at once", "[unit]") {
  StorePartsFixture f;
  const SignedRecord small = Signed(SampleRecord(), Publisher());
  auto resolved = f.pull.Resolve(wire::WireRecord(small.encoded, small.signature));
  REQUIRE(resolved.has_value());
  REQUIRE(*resolved);
  CHECK(***resolved == small);
}

TEST_CASE("a reference to a record this node holds or verified is resolved without a pull",
          "[unit]") {
  StorePartsFixture f;
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  const wire::WireRecord reference = ReferenceTo(large);
  CHECK_FALSE(f.pull.Resolve(reference).has_value());  // nothing at hand yet
  f.Hold(CapabilityKey("user-auth"), large);
  auto held = f.pull.Resolve(reference);
  REQUIRE(held.has_value());
  REQUIRE(*held);
  CHECK(***held == large);
  CHECK(f.stats.references_resolved_here == 1);

  StorePartsFixture g;
  REQUIRE(g.verifier.Verify(wire::WireRecord(large.encoded, large.signature)));
  auto verified = g.pull.Resolve(reference);
  REQUIRE(verified.has_value());
  CHECK(***verified == large);
  // The same signature with another digest is no copy of it.
  wire::WireRecord wrong = reference;
  wrong.reference->digest[0] ^= 1;
  CHECK_FALSE(g.pull.Resolve(wrong).has_value());
}

TEST_CASE("a reference to bytes this node serves is checked against its own signature", "[unit]") {
  StorePartsFixture f;
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  const wire::WireRecord reference = f.outbox.ToWire(f.now, large);
  auto same = f.pull.Resolve(reference);
  REQUIRE(same.has_value());
  CHECK(***same == large);
  wire::WireRecord forged = reference;
  forged.signature = Publisher("mallory").Sign(large.encoded);
  auto refused = f.pull.Resolve(forged);
  REQUIRE(refused.has_value());
  REQUIRE_FALSE(*refused);
  CHECK(refused->error().code == transport::ErrorCode::kCrypto);
}

TEST_CASE("a reference of a size no large record has is refused at once", "[unit]") {
  StorePartsFixture f;
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  for (uint32_t size :
       {uint32_t{0}, uint32_t{kRecordInlineSizeMax}, uint32_t{kRecordEncodedSizeMax + 1}}) {
    wire::WireRecord reference = ReferenceTo(large);
    reference.reference->size = size;
    auto refused = f.pull.Resolve(reference);
    INFO(size);
    REQUIRE(refused.has_value());
    REQUIRE_FALSE(*refused);
    CHECK_THAT(refused->error().message, Catch::Contains("travels inline"));
  }
}

TEST_CASE("pulls past the bound are refused and counted; one digest's pulls share one", "[unit]") {
  StorePartsFixture f;
  f.config.record_pulls_max = 1;
  RecordPull pull(f.node, f.config, f.verifier, f.store, f.outbox, f.stats);
  const wire::WireContact sender{Key::Sha256("sender"),
                                 *transport::Endpoint::Parse("10.0.0.9:6881")};
  const wire::WireRecord first = ReferenceTo(Signed(LargeRecord("a"), Publisher()));
  const wire::WireRecord second = ReferenceTo(Signed(LargeRecord("b"), Publisher()));
  const auto ignore = [](transport::TimePoint, const transport::Result<SignedRecordPtr>&) {};
  CHECK(pull.Pull(f.now, first, sender, ignore));
  CHECK(pull.Pull(f.now, first, sender, ignore));  // joins the pull running
  CHECK_FALSE(pull.Pull(f.now, second, sender, ignore));
  CHECK(pull.running() == 1);
  CHECK(f.stats.record_pulls_started == 1);
  CHECK(f.stats.record_pulls_refused == 1);
  CHECK(pull.NextDeadline() <= f.now + transport::Seconds(1));
  for (size_t i = 0; i < kPullWaitersMax - 2; ++i) CHECK(pull.Pull(f.now, first, sender, ignore));
  CHECK_FALSE(pull.Pull(f.now, first, sender, ignore));  // kPullWaitersMax wait on it already
}

}  // namespace
}  // namespace skillnode::kademlia::store
