// The provenance of a listed record (node/formats/listed_record.h): what it names, and that a
// reader can verify the signature over the signed bytes it carries with the key it names.
#include "node/formats/listed_record.h"

#include <catch2/catch.hpp>

#include "kademlia/wire/encoding.h"
#include "support/records.h"

namespace skillnode::node::formats {
namespace {

using kademlia::wire::Base64Decode;
using kademlia::wire::HexDecode;

TEST_CASE("a signed record's provenance lets a reader verify its publisher's signature", "[unit]") {
  const kademlia::Identity publisher = testing::Publisher("p");
  const auto signed_record = testing::Signed(testing::SampleRecord(), publisher);
  const ListedRecord listed{.record = signed_record.record,
                            .source = RecordSource::kDht,
                            .encoded = signed_record.encoded,
                            .signature = signed_record.signature};
  const nlohmann::json provenance = ProvenanceJson(listed);
  CHECK(provenance["source"] == "dht");
  CHECK(provenance["sequence"] == 1);
  CHECK(provenance["signatureAlgorithm"] == "Ed25519");
  CHECK(provenance["publisherNodeId"] == publisher.node_id().ToHex());
  const auto key = HexDecode(provenance["publisherKey"].get<std::string>()).value();
  const auto signature = HexDecode(provenance["signature"].get<std::string>()).value();
  const auto bytes = Base64Decode(provenance["signedRecord"].get<std::string>()).value();
  kademlia::PublicKey public_key{};
  kademlia::Signature sig{};
  REQUIRE(key.size() == public_key.size());
  REQUIRE(signature.size() == sig.size());
  std::copy(key.begin(), key.end(), public_key.begin());
  std::copy(signature.begin(), signature.end(), sig.begin());
  CHECK(kademlia::VerifySignature(public_key, bytes, sig));
  CHECK(kademlia::store::DecodeRecord(bytes).value() == signed_record.record);
}

TEST_CASE("an unsigned record's provenance has no signature fields; private ones need a token",
          "[unit]") {
  kademlia::store::SkillRecord record = testing::SampleRecord();
  record.descriptor = kademlia::store::SkillDescriptor{};
  record.descriptor->access = "private";
  const ListedRecord listed{.record = record, .source = RecordSource::kLocal};
  const nlohmann::json provenance = ProvenanceJson(listed);
  CHECK(provenance["source"] == "local");
  CHECK_FALSE(provenance.contains("signature"));
  CHECK_FALSE(provenance.contains("signedRecord"));
  CHECK_FALSE(VisibleTo(listed, false));
  CHECK(VisibleTo(listed, true));
  CHECK(VisibleTo(ListedRecord{.record = testing::SampleRecord()}, false));
}

TEST_CASE("the provenance shows the publisher domains a record claims, with their states",
          "[unit]") {
  ListedRecord listed{.record = testing::SampleRecord()};
  CHECK_FALSE(ProvenanceJson(listed).contains("publisherDomains"));
  listed.domain_claims =
      nlohmann::json::array({{{"domain", "pub.example"}, {"state", "verified"}}});
  CHECK(ProvenanceJson(listed)["publisherDomains"] == listed.domain_claims);
}

}  // namespace
}  // namespace skillnode::node::formats
