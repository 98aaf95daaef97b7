// Damaged datagrams for the wire codec (kademlia/wire/wire.h): empty, oversize, trailing and
// non-map input, every truncation and single-bit flip of valid messages, deep nesting, huge
// declared lengths and random bytes decode to a message or a clean error, never a crash.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/wire.h"
#include "support/wire_datagrams.h"
#include "transport/rng.h"

namespace skillnode::kademlia::wire {
namespace {

using namespace wire_datagrams;  // NOLINT(build/namespaces): the test files' own helpers

TEST_CASE("empty, oversize, trailing and non-map datagrams are errors", "[unit]") {
  CheckDecodeFails({}, "empty datagram");
  // Longer than any message may be (a relay's envelope: 1,440 bytes) is refused unread; longer
  // than other types may be, once the type is read (wire_golden_test.cpp).
  const std::vector<uint8_t> oversize(kRelayDatagramSizeMax + 1, 0x90);
  CheckDecodeFails(oversize, "1441 bytes, more than the 1440-byte limit");
  // A valid message padded to exactly the limit inside an unknown key still decodes.
  Fields padded = HeaderFields(1);
  padded.push_back({"pad", Bin(0)});
  // Bin(0) has a 2-byte header; a bin of 256 bytes or more has a 3-byte one.
  padded.back().value = Bin(kDatagramSizeMax - PackMap(padded).size() - 1);
  REQUIRE(PackMap(padded).size() == kDatagramSizeMax);
  CHECK(Decode(PackMap(padded)));

  auto trailing = PackMap(HeaderFields(1));
  trailing.push_back(0xc0);
  CheckDecodeFails(trailing, "1 trailing bytes");
  auto two_messages = PackMap(HeaderFields(1));
  const auto second = PackMap(HeaderFields(2));
  two_messages.insert(two_messages.end(), second.begin(), second.end());
  CheckDecodeFails(two_messages, "trailing bytes");

  CheckDecodeFails(Pack(ArrayOf({Uint(1), Uint(2)})), "expected a map at the top level, got array");
  CheckDecodeFails(Pack(Uint(7)), "got uint");
  CheckDecodeFails(Pack(Str("hello")), "got str");
  CheckDecodeFails(std::vector<uint8_t>{0xc1}, "not valid msgpack");  // never-used byte
}

TEST_CASE("every truncation of a valid message is an error", "[unit]") {
  for (const Message& valid : MessagesWithRecords()) {
    const auto bytes = EncodeOk(valid);
    for (size_t size = 0; size < bytes.size(); ++size) {
      INFO("type " << int(valid.type()) << ", first " << size << " bytes");
      auto message = Decode(std::span(bytes).first(size));
      REQUIRE_FALSE(message);
      if (size > 0) CHECK_THAT(message.error().message, Catch::Contains("truncated"));
    }
  }
}

TEST_CASE("deeply nested structures are errors", "[unit]") {
  auto nested = [](size_t depth, uint8_t opener) {
    Fields fields = HeaderFields(1);
    fields.push_back({"deep", [=](Packer& p) {
                        for (size_t i = 0; i < depth; ++i) {
                          if (opener == 0x91) p.pack_array(1);
                          if (opener == 0x81) {
                            p.pack_map(1);
                            p.pack(std::string("k"));
                          }
                        }
                        p.pack_nil();
                      }});
    return PackMap(fields);
  };
  for (uint8_t opener : {0x91, 0x81}) {
    CHECK(Decode(nested(kNestingDepthMax - 1, opener)));  // the top map is one level
    CheckDecodeFails(nested(kNestingDepthMax, opener), "nested deeper than 8");
    CheckDecodeFails(nested(200, opener), "nested deeper than 8");
  }
  // A datagram of nothing but array openers.
  CheckDecodeFails(std::vector<uint8_t>(kDatagramSizeMax, 0x91), "nested deeper than 8");
}

TEST_CASE("a huge declared length in a tiny datagram is an error, not an allocation", "[unit]") {
  const std::vector<std::vector<uint8_t>> cases = {
      {0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0},  // array32 of 4 billion
      {0xdf, 0xff, 0xff, 0xff, 0xff, 0xc0},  // map32
      {0xdc, 0xff, 0xff, 0xc0},              // array16 of 65535
      {0x81, 0xa1, 'x', 0xdd, 0x7f, 0xff, 0xff, 0xff},
      {0x81, 0xa1, 'x', 0xc6, 0xff, 0xff, 0xff, 0xff, 0},  // bin32 of 4 GiB
      {0x81, 0xa1, 'x', 0xdb, 0xff, 0xff, 0xff, 0xff, 0},  // str32
      {0x81, 0xa1, 'x', 0xc9, 0xff, 0xff, 0xff, 0xff, 1},  // ext32
      {0x81, 0xa1, 'x', 0xc9, 0xff, 0xff, 0xff, 0xfe, 1},
  };
  for (const auto& bytes : cases) CHECK_FALSE(Decode(bytes));
  // Under the cap but over what the datagram holds: the parser needs the bytes first.
  CHECK_FALSE(Decode(std::vector<uint8_t>{0x81, 0xa1, 'x', 0xc5, 0x04, 0x00, 0}));
}

TEST_CASE("random bytes decode to a message or an error, never a crash", "[unit]") {
  transport::Rng rng(20240601);
  const auto valid = EncodeOk({FullHeader(), NodesBody{Contacts(3, true), {1, 2}, {}}});
  size_t decoded = 0;
  for (int i = 0; i < 4000; ++i) {
    std::vector<uint8_t> bytes(rng.Below(kDatagramSizeMax + 100));
    rng.Fill(bytes);
    // Half the time keep a valid prefix so the decoder gets past the first byte.
    if (i % 2 == 1 && !bytes.empty()) {
      const size_t keep = std::min<size_t>(rng.Below(valid.size()), bytes.size());
      std::copy(valid.begin(), valid.begin() + keep, bytes.begin());
    }
    auto message = Decode(bytes);
    if (message) {
      ++decoded;
      CHECK(Encode(*message));
    }
  }
  SUCCEED("decoded " << decoded << " of 4000");
}

TEST_CASE("every single-bit flip of a valid message decodes or fails cleanly", "[unit]") {
  for (const Message& valid : MessagesWithRecords()) {
    const auto bytes = EncodeOk(valid);
    for (size_t bit = 0; bit < bytes.size() * 8; ++bit) {
      auto flipped = bytes;
      flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      auto message = Decode(flipped);
      if (!message) continue;
      // Whatever decodes re-encodes and decodes to the same message.
      INFO("type " << int(valid.type()) << ", bit " << bit);
      auto again = Encode(*message);
      REQUIRE(again);
      CHECK(DecodeOk(*again) == *message);
    }
  }
}

}  // namespace
}  // namespace skillnode::kademlia::wire
