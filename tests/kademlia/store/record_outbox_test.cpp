// RecordOutbox (kademlia/store/record_outbox.h): small records go inline as they always did,
// large ones as references whose bytes are then served by digest, for a while and up to a bound.
#include "kademlia/store/record_outbox.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "kademlia/wire/encoding.h"
#include "store_parts_fixture.h"
#include "support/peer.h"
#include "support/records.h"

namespace skillnode::kademlia::store {
namespace {

using testing::LargeRecord;
using testing::Peer;
using testing::Publisher;
using testing::SampleRecord;
using testing::Signed;

wire::BlobDigest DigestOf(const std::vector<uint8_t>& bytes) {
  wire::BlobDigest digest{};
  wire::Sha256Into(bytes, digest);
  return digest;
}

TEST_CASE("a record that fits a datagram goes inline, byte for byte, and is not served", "[unit]") {
  StorePartsFixture f;
  const SignedRecord small = Signed(SampleRecord(), Publisher());
  const wire::WireRecord wire = f.outbox.ToWire(f.now, small);
  CHECK(wire == wire::WireRecord(small.encoded, small.signature));
  CHECK_FALSE(wire.is_reference());
  CHECK(f.outbox.size() == 0);
  CHECK(f.stats.references_sent == 0);
}

TEST_CASE("a large record goes as a reference and its bytes are served by digest", "[unit]") {
  StorePartsFixture f;
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  REQUIRE(large.encoded.size() > kRecordInlineSizeMax);
  const wire::WireRecord wire = f.outbox.ToWire(f.now, large);
  REQUIRE(wire.is_reference());
  CHECK(wire.encoded.empty());
  CHECK(wire.signature == large.signature);
  CHECK(wire.reference->digest == DigestOf(large.encoded));
  CHECK(wire.reference->size == large.encoded.size());
  CHECK(f.outbox.size() == 1);
  CHECK(f.stats.references_sent == 1);
  REQUIRE(f.outbox.Find(wire.reference->digest) != nullptr);
  CHECK(f.outbox.SizeOf(wire.reference->digest) == large.encoded.size());
  const std::vector<uint8_t> tail = f.outbox.Read(wire.reference->digest, 3000, 1000);
  CHECK(tail == std::vector<uint8_t>(large.encoded.begin() + 3000, large.encoded.end()));
  // The same record again: one entry, its time renewed.
  const auto shared = std::make_shared<const SignedRecord>(large);
  CHECK(f.outbox.ToWire(f.now, shared) == wire);
  CHECK(f.outbox.size() == 1);
}

TEST_CASE("a verified peer pulls the served bytes with BLOB_GET; other digests are not ours",
          "[unit]") {
  StorePartsFixture f;
  const Peer peer("puller", "10.0.0.7:6881");
  f.Verify(peer);
  const SignedRecord large = Signed(LargeRecord(), Publisher());
  const wire::WireRecord wire = f.outbox.ToWire(f.now, large);
  const wire::Message get = peer.Request(wire::BlobGetBody{wire.reference->digest, 1000, 1000}, 77);
  const auto body =
      f.outbox.Serve(f.now, peer.endpoint, get, std::get<wire::BlobGetBody>(get.body));
  REQUIRE(body.has_value());
  const auto* data = std::get_if<wire::BlobDataBody>(&*body);
  REQUIRE(data != nullptr);
  CHECK(data->size == large.encoded.size());
  CHECK(data->bytes ==
        std::vector<uint8_t>(large.encoded.begin() + 1000, large.encoded.begin() + 2000));
  CHECK(f.outbox.blob_stats().chunks_served == 1);
  const wire::Message other = peer.Request(wire::BlobGetBody{DigestOf({1, 2}), 0, 1000}, 78);
  CHECK_FALSE(f.outbox.Serve(f.now, peer.endpoint, other, std::get<wire::BlobGetBody>(other.body)));
}

TEST_CASE("served bytes are forgotten after the serve time and past the bound, oldest first",
          "[unit]") {
  StorePartsFixture f;
  f.config.record_outbox_max = 2;
  RecordOutbox outbox(f.node, f.config, f.stats);
  std::vector<wire::BlobDigest> digests;
  for (int i = 0; i < 3; ++i) {
    const SignedRecord large = Signed(LargeRecord("agent-" + std::to_string(i)), Publisher());
    digests.push_back(outbox.ToWire(f.now + transport::Seconds(i), large).reference->digest);
  }
  CHECK(outbox.size() == 2);
  CHECK(outbox.Find(digests[0]) == nullptr);  // referenced least recently
  CHECK(outbox.Find(digests[2]) != nullptr);
  // Past the serve time of both, the next use forgets them.
  const wire::Message get =
      Peer("p", "10.0.0.8:6881").Request(wire::BlobGetBody{digests[2], 0, 10}, 1);
  CHECK_FALSE(outbox.Serve(f.now + f.config.record_serve_time + transport::Seconds(3),
                           *transport::Endpoint::Parse("10.0.0.8:6881"), get,
                           std::get<wire::BlobGetBody>(get.body)));
  CHECK(outbox.size() == 0);
}

}  // namespace
}  // namespace skillnode::kademlia::store
