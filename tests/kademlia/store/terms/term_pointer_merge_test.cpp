// TermPointerMerge (kademlia/store/terms/term_pointer_merge.h): copies checked (signature,
// term shard, window), the newest per identity kept, tombstones burying, order of Live().
#include "kademlia/store/terms/term_pointer_merge.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support/records.h"
#include "support/term_pointers.h"

namespace skillnode::kademlia::store::terms {
namespace {

using testing::Publisher;

const transport::TimePoint kNow = transport::kTimeZero + transport::Seconds(10);

TermPointer Sample(const std::string& skill, uint32_t weight, uint64_t sequence = 1) {
  TermPointer p = testing::SampleTermPointer(skill, weight, sequence, "calendar", "");
  p.name = "Calendar";
  return p;
}

wire::WireRecord Wire(const TermPointer& pointer) {
  const SignedTermPointer s = *SignTermPointer(pointer, Publisher());
  return {s.encoded, s.signature};
}

RecordIdentity IdOf(const std::string& skill) {
  TermPointer p = Sample(skill, 100);
  p.publisher = Publisher().public_key();
  return IdentityOf(p);
}

struct MergeFixture {
  RecordWindow window{SimulatedWallClockMs, transport::Seconds(300)};
  TermPointerMerge merge{"calendar", window, Ed25519Signatures()};
};

TEST_CASE("the merge keeps the newest version per identity, and a tombstone is not live",
          "[unit]") {
  MergeFixture f;
  REQUIRE(f.merge.Take(kNow, 0, Wire(Sample("skill-a", 100, 2)), 100));
  REQUIRE(f.merge.Take(kNow, 0, Wire(Sample("skill-a", 900, 1)), 100));  // older: kept out
  REQUIRE(f.merge.Take(kNow, 1, Wire(Sample("skill-b", 500, 1)), 100));
  CHECK(f.merge.live() == 2);
  REQUIRE(f.merge.Live().size() == 2);
  CHECK(f.merge.Live()[0].pointer.skill_id == "skill-b");
  CHECK(f.merge.Live()[1].pointer.weight_centi == 100);
  CHECK(f.merge.newest().at(IdOf("skill-b")).shard == 1);

  TermPointer tombstone = Sample("skill-b", 0, 2);
  tombstone.tombstone = true;
  tombstone.name.clear();
  REQUIRE(f.merge.Take(kNow, 1, Wire(tombstone), 100));
  // The pointer it buries, again from another holder, does not come back.
  REQUIRE(f.merge.Take(kNow, 1, Wire(Sample("skill-b", 500, 1)), 100));
  CHECK(f.merge.live() == 1);
  REQUIRE(f.merge.Live().size() == 1);
  CHECK(f.merge.Live()[0].pointer.skill_id == "skill-a");
}

TEST_CASE(
    "the merge refuses a forged copy, one of another term or shard, and one outside its "
    "window",
    "[unit]") {
  MergeFixture f;
  wire::WireRecord forged = Wire(Sample("skill-a", 100));
  forged.signature[0] ^= 1;
  TermPointer other = Sample("skill-b", 100);
  other.term = "meeting";
  TermPointer expired = Sample("skill-c", 100);
  expired.timestamp_ms = kSimulatedEpochMs - 2 * 3'600'000;  // its hour ended an hour ago
  wire::WireRecord reference = Wire(Sample("skill-d", 100));
  reference.encoded.clear();
  reference.reference = wire::RecordReference{};
  CHECK_FALSE(f.merge.Take(kNow, 0, forged, std::nullopt));
  CHECK_FALSE(f.merge.Take(kNow, 0, Wire(other), std::nullopt));
  CHECK_FALSE(f.merge.Take(kNow, 0, Wire(expired), std::nullopt));
  CHECK_FALSE(f.merge.Take(kNow, 0, reference, std::nullopt));
  CHECK(f.merge.rejected() == 4);
  CHECK(f.merge.outside_window() == 1);
  CHECK(f.merge.live() == 0);
  // The same copy verified once is taken again from another holder, its lifetime the longest.
  REQUIRE(f.merge.Take(kNow, 3, Wire(Sample("skill-e", 100)), 100));
  REQUIRE(f.merge.Take(kNow, 3, Wire(Sample("skill-e", 100)), 300));
  CHECK(f.merge.newest().at(IdOf("skill-e")).seconds_left == 300);
}

}  // namespace
}  // namespace skillnode::kademlia::store::terms
