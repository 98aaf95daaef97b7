// RecordVerifier (kademlia/store/record/record_verifier.h): a record's signature is checked in full
// once and its later copies counted as checked again; a forged record is refused; the policy
// decides which verified records are taken.
#include "kademlia/store/record/record_verifier.h"

#include <catch2/catch.hpp>
#include <string>

#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

const HashKey kKey{9, 8, 7, 6, 5, 4, 3, 2, 1};

wire::WireRecord WireOf(const SignedRecord& record) { return {record.encoded, record.signature}; }

TEST_CASE("the verifier checks a record in full once and counts its copies as checked again",
          "[unit]") {
  DhtStats stats;
  RecordVerifier verifier(16, kKey, Ed25519Signatures(), stats);
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  auto first = verifier.Verify(WireOf(record));
  REQUIRE(first.has_value());
  CHECK((*first)->record == record.record);
  auto again = verifier.Verify(WireOf(record));
  REQUIRE(again.has_value());
  CHECK(*again == *first);  // the shared copy
  CHECK(stats.records_verified == 1);
  CHECK(stats.records_verified_again == 1);
}

TEST_CASE("the verifier refuses a record whose signature does not match its bytes", "[unit]") {
  DhtStats stats;
  RecordVerifier verifier(16, kKey, Ed25519Signatures(), stats);
  SignedRecord record = Signed(SampleRecord(), Publisher());
  record.signature[0] ^= 1;
  const auto refused = verifier.Verify(WireOf(record));
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == transport::ErrorCode::kCrypto);
  CHECK(stats.records_verified == 1);
}

TEST_CASE("without a policy every record is admitted, with one the policy decides", "[unit]") {
  DhtStats stats;
  RecordVerifier verifier(16, kKey, Ed25519Signatures(), stats);
  const SignedRecord ours = Signed(SampleRecord("ours"), Publisher("ours"));
  const SignedRecord theirs = Signed(SampleRecord("theirs"), Publisher("theirs"));
  CHECK_FALSE(verifier.has_policy());
  CHECK(verifier.Admit(theirs));
  const PublicKey allowed = Publisher("ours").public_key();
  verifier.SetPolicy([allowed](const SignedRecord& r) -> transport::Result<void> {
    if (r.record.publisher == allowed) return {};
    return tl::unexpected(transport::Error{transport::ErrorCode::kRefused, "not certified"});
  });
  CHECK(verifier.has_policy());
  CHECK(verifier.Admit(ours));
  const auto refused = verifier.Admit(theirs);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "not certified");
}

}  // namespace
}  // namespace skillnode::kademlia::store
