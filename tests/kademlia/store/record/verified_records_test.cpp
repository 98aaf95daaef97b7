// VerifiedRecords: a record's signature is checked once however many copies arrive; only the
// very bytes under the very signature hit; failures are never kept; the table is bounded.
#include "kademlia/store/record/verified_records.h"

#include <catch2/catch.hpp>
#include <string>

#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

const HashKey kKey{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

// Counts the signatures it is asked to verify, and verifies them with Ed25519.
class CountingScheme final : public SignatureScheme {
 public:
  Signature Sign(const Identity& identity, std::span<const uint8_t> message) const override {
    return Ed25519Signatures().Sign(identity, message);
  }
  bool Verify(const PublicKey& public_key, std::span<const uint8_t> message,
              const Signature& signature) const override {
    ++verified;
    return Ed25519Signatures().Verify(public_key, message, signature);
  }
  mutable int verified = 0;
};

TEST_CASE("a record is verified once however many copies arrive", "[unit]") {
  CountingScheme scheme;
  VerifiedRecords table(8, kKey);
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  auto first = table.Verify(record.encoded, record.signature, scheme);
  REQUIRE(first.has_value());
  auto second = table.Verify(record.encoded, record.signature, scheme);
  REQUIRE(second.has_value());
  CHECK(scheme.verified == 1);
  CHECK(*first == *second);  // the one shared copy
  CHECK((*second)->record.skill_id == record.record.skill_id);
  CHECK(table.hits() == 1);
  CHECK(table.misses() == 1);
}

TEST_CASE("other bytes under a known signature are verified, and refused", "[unit]") {
  CountingScheme scheme;
  VerifiedRecords table(8, kKey);
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  REQUIRE(table.Verify(record.encoded, record.signature, scheme).has_value());
  // Another record, carrying the first one's signature.
  const SignedRecord other = Signed(SampleRecord("agent-002"), Publisher());
  auto forged = table.Verify(other.encoded, record.signature, scheme);
  REQUIRE_FALSE(forged.has_value());
  CHECK(forged.error().code == transport::ErrorCode::kCrypto);
  CHECK(scheme.verified == 2);
  // A failure is not remembered: asked again, it is checked again.
  CHECK_FALSE(table.Verify(other.encoded, record.signature, scheme).has_value());
  CHECK(scheme.verified == 3);
  // Truncated bytes of the known record are no hit either.
  auto cut = table.Verify(std::span(record.encoded).first(record.encoded.size() - 1),
                          record.signature, scheme);
  CHECK_FALSE(cut.has_value());
  CHECK(table.size() == 1);
}

TEST_CASE("the table keeps the most recently used records, up to its bound", "[unit]") {
  CountingScheme scheme;
  VerifiedRecords table(2, kKey);
  const SignedRecord a = Signed(SampleRecord("agent-a"), Publisher());
  const SignedRecord b = Signed(SampleRecord("agent-b"), Publisher());
  const SignedRecord c = Signed(SampleRecord("agent-c"), Publisher());
  REQUIRE(table.Verify(a.encoded, a.signature, scheme).has_value());
  REQUIRE(table.Verify(b.encoded, b.signature, scheme).has_value());
  REQUIRE(table.Verify(a.encoded, a.signature, scheme).has_value());  // a is the newest
  REQUIRE(table.Verify(c.encoded, c.signature, scheme).has_value());  // b goes
  CHECK(table.size() == 2);
  CHECK(scheme.verified == 3);
  REQUIRE(table.Verify(a.encoded, a.signature, scheme).has_value());
  CHECK(scheme.verified == 3);
  REQUIRE(table.Verify(b.encoded, b.signature, scheme).has_value());
  CHECK(scheme.verified == 4);
}

TEST_CASE("a table of size 0 verifies every copy", "[unit]") {
  CountingScheme scheme;
  VerifiedRecords table(0, kKey);
  const SignedRecord record = Signed(SampleRecord(), Publisher());
  for (int i = 0; i < 3; ++i) {
    REQUIRE(table.Verify(record.encoded, record.signature, scheme).has_value());
  }
  CHECK(scheme.verified == 3);
  CHECK(table.size() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia::store
