// The wire codec's bytes, pinned: every message type packs to exactly the bytes the codec wrote
// before its bodies were described by one field table (kademlia/wire/wire_fields.h). The
// expected bytes were captured from the hand-written packers at 0addd54; a change here is a
// change of the wire format, which peers running the older version would misread. The sample
// bodies are shared with wire_test.cpp's round trips (wire_samples.h), the pinned bytes are in
// wire_golden_bytes.h.
#include <array>
#include <catch2/catch.hpp>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kademlia/wire/encoding.h"
#include "kademlia/wire/wire.h"
#include "support/wire_datagrams.h"
#include "wire_golden_bytes.h"
#include "wire_samples.h"

namespace skillnode::kademlia::wire {
namespace {

using wire_datagrams::Contacts;
using wire_datagrams::EncodeOk;
using wire_datagrams::Filled;
using wire_datagrams::FullHeader;
using wire_datagrams::MinimalHeader;
using namespace golden;  // NOLINT(build/namespaces): the pinned bytes

// One message of each type (named after it), then a ping under the full header.
std::vector<std::pair<std::string, Message>> OnePerType() {
  std::vector<std::pair<std::string, Message>> out;
  for (const Body& body : samples::OnePerType()) {
    Message message{MinimalHeader(), body};
    out.emplace_back(std::string(MessageTypeName(message.type())), message);
  }
  out.emplace_back("ping with the full header", Message{FullHeader(), PingBody{}});
  return out;
}

std::string Sha256Hex(std::span<const uint8_t> bytes) {
  std::array<uint8_t, 32> digest{};
  Sha256Into(bytes, digest);
  return HexEncode(digest);
}

TEST_CASE("each message type packs to the bytes the hand-written packers wrote", "[unit]") {
  const auto messages = OnePerType();
  REQUIRE(messages.size() == std::size(kOnePerTypeHex));
  for (size_t i = 0; i < messages.size(); ++i) {
    INFO(messages[i].first);
    const auto bytes = EncodeOk(messages[i].second);
    CHECK(HexEncode(bytes) == kOnePerTypeHex[i]);
    // And the bytes read back as the message.
    CHECK(wire_datagrams::DecodeOk(bytes) == messages[i].second);
  }
}

TEST_CASE("bodies at their limits and without optional fields pack to the same bytes as before",
          "[unit]") {
  const auto bodies = samples::EdgeBodies();
  REQUIRE(bodies.size() * 2 == std::size(kEdgeDigests));
  size_t i = 0;
  for (const Body& body : bodies) {
    for (const Header& header : {MinimalHeader(), FullHeader()}) {
      INFO("body " << i / 2 << (i % 2 == 0 ? ", minimal header" : ", full header"));
      const auto bytes = EncodeOk(Message{header, body});
      CHECK(bytes.size() == kEdgeDigests[i].first);
      CHECK(Sha256Hex(bytes) == kEdgeDigests[i].second);
      ++i;
    }
  }
}

TEST_CASE("EncodeFitting drops the same contacts and packs the same bytes as before", "[unit]") {
  const Message many{FullHeader(), NodesBody{Contacts(40, true), std::vector<uint8_t>(32, 1), {}}};
  const auto bytes = EncodeFitting(many);
  REQUIRE(bytes);
  CHECK(bytes->size() == kFittedDigest.first);
  CHECK(Sha256Hex(*bytes) == kFittedDigest.second);
}

TEST_CASE("a record by reference packs as [digest, size, signature] in STORE, VALUES and PUSH",
          "[unit]") {
  const WireRecord reference =
      WireRecord::Referring(RecordReference{Filled<32>(0xd1), 3313}, Filled<64>(0x51));
  // fixarray of 3, bin8 of 32 bytes, uint16 3313, bin8 of 64 bytes.
  const std::string entry =
      "93c420" + HexEncode(Filled<32>(0xd1)) + "cd0cf1c440" + HexEncode(Filled<64>(0x51));
  const WireRecord inline_record{{1, 2, 3}, Filled<64>(4)};
  const std::pair<Body, std::string_view> cases[] = {
      {StoreBody{Key::Sha256("skill"), {8}, reference, 3600}, kReferenceStoreHex},
      {ValuesBody{{}, {7}, {inline_record, reference}, 2, std::nullopt, {60, 61}, {}, {}},
       kReferenceValuesHex},
      {PushBody{Key::Sha256("k"), reference, std::nullopt}, kReferencePushHex},
  };
  for (const auto& [body, hex] : cases) {
    const Message message{MinimalHeader(), body};
    const auto bytes = EncodeOk(message);
    CHECK(HexEncode(bytes).find(entry) != std::string::npos);
    CHECK(HexEncode(bytes) == hex);
    CHECK(wire_datagrams::DecodeOk(bytes) == message);
  }
}

}  // namespace
}  // namespace skillnode::kademlia::wire
