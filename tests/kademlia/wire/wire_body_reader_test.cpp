// BodyReader (kademlia/wire/wire_body_reader.h): reads back what BodyWriter wrote for every
// body, applies each field's presence rule, and names the field of the first problem.
#include "kademlia/wire/wire_body_reader.h"

#include <catch2/catch.hpp>
#include <msgpack.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/wire.h"
#include "kademlia/wire/wire_body_writer.h"
#include "support/wire_datagrams.h"

namespace skillnode::kademlia::wire {
namespace {

namespace wd = wire_datagrams;
using wire_internal::BodyReader;
using wire_internal::FieldReader;

// Reads `bytes` (one msgpack map) as the body of `type`: the body, or the reader's error.
transport::Result<Body> ReadBytes(uint8_t type, const std::vector<uint8_t>& bytes) {
  const msgpack::object_handle handle =
      msgpack::unpack(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  FieldReader reader;
  Body body = BodyReader::Read(type, &handle.get(), reader);
  if (!reader.ok()) return tl::unexpected(reader.TakeError());
  return body;
}

std::vector<uint8_t> Written(const Body& body) {
  std::vector<uint8_t> bytes;
  VectorSink sink(&bytes);
  Packer packer(sink);
  wire_internal::BodyWriter::Pack(body, packer);
  sink.Finish();
  return bytes;
}

TEST_CASE("BodyReader reads back every body BodyWriter wrote", "[unit]") {
  const WireRecord record{{1, 2}, wd::Filled<64>(3)};
  const std::vector<Body> bodies = {
      PingBody{},
      PongBody{},
      FindNodeBody{Key::Sha256("t")},
      NodesBody{wd::Contacts(3, true), {1, 2}, {}},
      FindValueBody{Key::Sha256("s"), 7, {}},
      ValuesBody{wd::Contacts(2, false), {4}, {record, record}, 9, 2, {60, 70}, {}, {}},
      StoreBody{Key::Sha256("s"), {7}, record, 3600},
      StoredBody{},
      ListenBody{Key::Sha256("s"), 300, {}},
      ListeningBody{150},
      PushBody{Key::Sha256("k"), record, GoneRecord{wd::Filled<32>(4), "a", "s", 7}},
      PushAckBody{},
      BlobFindBody{Key::Sha256("b")},
      BlobHoldersBody{wd::Contacts(1, true), {1}, wd::Contacts(2, false), true},
      BlobAnnounceBody{Key::Sha256("b"), {3}, 1200},
      BlobGetBody{wd::Filled<32>(9), 1, 1000},
      BlobDataBody{wd::Filled<32>(8), 1000, 3000, {1, 2, 3}},
      ErrorBody{14, "stale"},
  };
  for (const Body& body : bodies) {
    const uint8_t type = Message{{}, body}.type();
    INFO(MessageTypeName(type));
    const auto read = ReadBytes(type, Written(body));
    REQUIRE(read);
    CHECK(*read == body);
  }
}

TEST_CASE("BodyReader reads absent optional fields as their defaults", "[unit]") {
  const auto find = ReadBytes(5, wd::PackMap({{"tg", wd::Bin(32)}}));
  REQUIRE(find);
  CHECK(std::get<FindValueBody>(*find).cursor == 0);
  const auto values = ReadBytes(
      6, wd::PackMap({{"ns", wd::ArrayOf({})}, {"rs", wd::ArrayOf({})}, {"tt", wd::Uint(0)}}));
  REQUIRE(values);
  CHECK(*values == Body(ValuesBody{}));
  const auto push = ReadBytes(11, wd::PackMap({{"tg", wd::Bin(32)}}));
  REQUIRE(push);
  CHECK_FALSE(std::get<PushBody>(*push).record);
  CHECK_FALSE(std::get<PushBody>(*push).gone);
}

TEST_CASE("BodyReader names the first field that is missing, mistyped or over its limit",
          "[unit]") {
  struct Case {
    uint8_t type;
    wd::Fields fields;
    const char* says;
  };
  const Case cases[] = {
      {7,
       {{"tg", wd::Bin(32)}, {"rc", wd::ArrayOf({wd::Bin(1), wd::Bin(64)})}, {"lt", wd::Uint(1)}},
       "field 'a.tk': missing"},
      {9, {{"tg", wd::Bin(31)}, {"lt", wd::Uint(1)}}, "field 'a.tg': expected bin of 32 bytes"},
      {10, {{"lt", wd::Uint(1ULL << 32)}}, "field 'a.lt': 4294967296 is out of range"},
      {4, {{"ns", wd::ArrayOf({})}, {"tk", wd::Bin(33)}}, "field 'a.tk': bin of 33 bytes"},
      {6,
       {{"ns", wd::ArrayOf({})},
        {"rs", wd::ArrayOf({wd::ArrayOf({wd::Bin(1), wd::Bin(64)})})},
        {"lf", wd::ArrayOf({wd::Uint(1), wd::Uint(2)})},
        {"tt", wd::Uint(1)}},
       "field 'a.lf': 2 lifetimes for 1 records"},
      {5, {{"tg", wd::Bin(32)}, {"wf", wd::Bin(3)}}, "field 'a.wf': 3 bytes are not whole"},
      {5, {{"tg", wd::Bin(32)}, {"wf", wd::Bin(18)}}, "field 'a.wf': bin of 18 bytes"},
      {5, {{"tg", wd::Bin(32)}, {"wf", wd::Str("ab")}}, "field 'a.wf': expected bin"},
      {6,
       {{"ns", wd::ArrayOf({})},
        {"rs", wd::ArrayOf({})},
        {"tt", wd::Uint(1)},
        {"tm", wd::Str("x")}},
       "field 'a.tm': expected uint"},
      {6,
       {{"ns", wd::ArrayOf({})},
        {"rs", wd::ArrayOf({})},
        {"tt", wd::Uint(256)},
        {"lw", wd::Uint(1ULL << 32)}},
       "field 'a.lw': 4294967296 is out of range"},
      {14,
       {{"ns", wd::ArrayOf({})}, {"hs", wd::ArrayOf({wd::BinOf(wd::ContactBytes(4, 0))})}},
       "field 'a.hs[0]': port 0"},
      {127,
       {{"c", wd::Uint(1)}, {"m", wd::Str(std::string(201, 'x'))}},
       "field 'a.m': str of 201 bytes"},
  };
  for (const Case& c : cases) {
    INFO(c.says);
    const auto read = ReadBytes(c.type, wd::PackMap(c.fields));
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::Contains(c.says));
  }
}

}  // namespace
}  // namespace skillnode::kademlia::wire
