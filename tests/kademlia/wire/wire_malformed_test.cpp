// Hand-built datagrams for the wire codec (kademlia/wire/wire.h): forward compatibility and
// unusual valid input, and every malformed field and body. Damaged datagrams (truncated,
// bit-flipped, random, nested, oversized) are in wire_damaged_test.cpp; round trips and encoding
// rules in wire_test.cpp. The helpers are in tests/support/wire_datagrams.h.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/wire.h"
#include "support/wire_datagrams.h"
#include "transport/rng.h"

namespace skillnode::kademlia::wire {
namespace {

using namespace wire_datagrams;  // NOLINT(build/namespaces): the test files' own helpers

// ---- Forward compatibility and unusual valid input ------------------------------------

TEST_CASE("an IPv4-mapped IPv6 contact decodes as IPv4", "[unit]") {
  std::vector<uint8_t> contact(Key::kSize, 4);
  const std::vector<uint8_t> mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
  contact.insert(contact.end(), mapped.begin(), mapped.end());
  contact.insert(contact.end(), {0x1a, 0xe1});
  const auto bytes = PackMap(HeaderFields(4, {{"ns", ArrayOf({BinOf(contact)})}}));
  const auto nodes = std::get<NodesBody>(DecodeOk(bytes).body).nodes;
  REQUIRE(nodes.size() == 1);
  CHECK(nodes[0].endpoint.ToString() == "10.0.0.1:6881");
}

TEST_CASE("unknown keys at the top level and in bodies are ignored", "[unit]") {
  Fields body = {{"tg", Bin(32, 9)},
                 {"future", MapOf({{"x", ArrayOf({Uint(1), Str("y"), Nil()})}})},
                 {"zz", Int(-5)}};
  Fields fields = HeaderFields(3, body);
  fields.push_back({"later", Str("a field from version 2")});
  fields.push_back({"ext", [](Packer& p) {
                      p.pack_ext(2, 42);
                      p.pack_ext_body("hi", 2);
                    }});
  fields.insert(fields.begin(), {"", Nil()});
  const Message message = DecodeOk(PackMap(fields));
  CHECK(message.header.txid == 42);
  CHECK(std::get<FindNodeBody>(message.body).target == Key(Filled<32>(9)));
}

TEST_CASE("keys that are not strings are ignored", "[unit]") {
  auto bytes = Pack([](Packer& p) {
    p.pack_map(9);
    for (const Field& f : HeaderFields(1)) {
      p.pack(f.key);
      f.value(p);
    }
    p.pack_uint8(1);  // an integer key, even one that looks like a field
    p.pack_uint8(2);
    p.pack_bin(1);  // a bin key spelling "v"
    p.pack_bin_body("v", 1);
    p.pack(std::string("not a version"));
  });
  CHECK(DecodeOk(bytes).header.version == 1);
}

TEST_CASE("an unknown type decodes to UnknownBody whatever its body", "[unit]") {
  for (uint64_t type : {0, 42, 100, 126, 128, 255}) {
    INFO("type " << type);
    CHECK(std::get<UnknownBody>(DecodeOk(PackMap(HeaderFields(type))).body).type == type);
    CHECK(DecodeOk(PackMap(With(HeaderFields(type), "a", Str("not a map")))).type() == type);
    CHECK(DecodeOk(PackMap(Without(HeaderFields(type), "a"))).type() == type);
    CHECK(DecodeOk(PackMap(HeaderFields(type, {{"tg", Nil()}}))).type() == type);
  }
}

TEST_CASE("non-canonical encodings of valid values are accepted", "[unit]") {
  auto wide = [](Packer& p) {  // 1 as a uint64 and as a signed int
    p.pack_fix_uint64(1);
  };
  Fields fields = With(HeaderFields(1), "v", wide);
  fields = With(fields, "t", [](Packer& p) { p.pack_fix_int32(42); });
  fields = With(fields, "id", [](Packer& p) {  // bin 32 with a 32-bit length
    const std::string bytes(32, 1);
    p.pack_bin(32);
    p.pack_bin_body(bytes.data(), 32);
  });
  fields = With(fields, "p", Bool(false));
  fields = With(fields, "c", Bool(false));
  const Message message = DecodeOk(PackMap(fields));
  CHECK(message.header.version == 1);
  CHECK(message.header.txid == 42);
  CHECK_FALSE(message.header.proof_wanted);
  CHECK_FALSE(message.header.client);
}

// ---- Malformed datagrams ---------------------------------------------------------------

TEST_CASE("missing required fields are errors naming the field", "[unit]") {
  for (const char* key : {"v", "n", "t", "y", "id", "k", "a"}) {
    INFO("without " << key);
    CheckDecodeFails(PackMap(Without(HeaderFields(1), key)),
                     "field '" + std::string(key) + "': missing");
  }
  CheckDecodeFails(PackMap(HeaderFields(3)), "field 'a.tg': missing");
  CheckDecodeFails(PackMap(HeaderFields(4, {{"tk", Bin(4)}})), "field 'a.ns': missing");
  CheckDecodeFails(PackMap(HeaderFields(127, {{"m", Str("x")}})), "field 'a.c': missing");
  CheckDecodeFails(PackMap(HeaderFields(127, {{"c", Uint(1)}})), "field 'a.m': missing");
}

TEST_CASE("fields of the wrong msgpack type are errors naming the field", "[unit]") {
  struct Case {
    std::string key;
    PackFn value;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"v", Str("1"), "field 'v': expected uint, got str"},
      {"v", Uint(0x100000000), "field 'v': 4294967296 is out of range (0..4294967295)"},
      {"n", Int(-1), "field 'n': expected uint, got negative int"},
      {"n", Uint(0x100000000), "field 'n': 4294967296 is out of range"},
      {"t", Int(-42), "field 't': expected uint, got negative int"},
      {"t", Str("42"), "field 't': expected uint, got str"},
      {"t", [](Packer& p) { p.pack_double(42.5); }, "field 't': expected uint, got float64"},
      {"y", Uint(300), "field 'y': 300 is out of range (0..255)"},
      {"y", Bool(true), "field 'y': expected uint, got bool"},
      {"id", Str(std::string(32, 'x')), "field 'id': expected bin of 32 bytes, got str"},
      {"id", Nil(), "field 'id': expected bin of 32 bytes, got nil"},
      {"k", ArrayOf({}), "field 'k': expected bin of 32 bytes, got array"},
      {"p", Uint(1), "field 'p': expected bool, got uint"},
      {"s", Str(std::string(64, 's')), "field 's': expected bin of 64 bytes, got str"},
      {"o", MapOf({}), "field 'o': expected bin of 6 or 18 bytes, got map"},
      {"a", ArrayOf({}), "field 'a': expected map, got array"},
      {"a", Nil(), "field 'a': expected map, got nil"},
  };
  for (const Case& c : cases) {
    INFO(c.says);
    CheckDecodeFails(PackMap(With(HeaderFields(1), c.key, c.value)), c.says);
  }
  CheckDecodeFails(PackMap(HeaderFields(3, {{"tg", Str(std::string(32, 't'))}})),
                   "field 'a.tg': expected bin of 32 bytes, got str");
  CheckDecodeFails(PackMap(HeaderFields(4, {{"ns", MapOf({})}})),
                   "field 'a.ns': expected array, got map");
  CheckDecodeFails(PackMap(HeaderFields(4, {{"ns", ArrayOf({Str("c")})}})),
                   "field 'a.ns[0]': expected bin of 38 or 50 bytes, got str");
  CheckDecodeFails(PackMap(HeaderFields(4, {{"ns", ArrayOf({})}, {"tk", Str("t")}})),
                   "field 'a.tk': expected bin, got str");
  CheckDecodeFails(PackMap(HeaderFields(127, {{"c", Int(-1)}, {"m", Str("")}})),
                   "field 'a.c': expected uint, got negative int");
  CheckDecodeFails(PackMap(HeaderFields(127, {{"c", Uint(65536)}, {"m", Str("")}})),
                   "field 'a.c': 65536 is out of range (0..65535)");
  CheckDecodeFails(PackMap(HeaderFields(127, {{"c", Uint(1)}, {"m", Bin(3)}})),
                   "field 'a.m': expected str, got bin");
}

TEST_CASE("fields of the wrong length are errors naming the field and the length", "[unit]") {
  struct Case {
    std::string key;
    size_t size;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"id", 31, "field 'id': expected bin of 32 bytes, got 31"},
      {"id", 0, "field 'id': expected bin of 32 bytes, got 0"},
      {"k", 33, "field 'k': expected bin of 32 bytes, got 33"},
      {"s", 63, "field 's': expected bin of 64 bytes, got 63"},
      {"o", 7, "field 'o': expected bin of 6 or 18 bytes, got 7"},
      {"o", 17, "field 'o': expected bin of 6 or 18 bytes, got 17"},
  };
  for (const Case& c : cases) {
    INFO(c.says);
    CheckDecodeFails(PackMap(With(HeaderFields(2), c.key, Bin(c.size))), c.says);
  }
  CheckDecodeFails(PackMap(HeaderFields(3, {{"tg", Bin(33)}})),
                   "field 'a.tg': expected bin of 32 bytes, got 33");
  CheckDecodeFails(
      PackMap(HeaderFields(4, {{"ns", ArrayOf({BinOf(ContactBytes(4, 1)), Bin(37)})}})),
      "field 'a.ns[1]': expected bin of 38 or 50 bytes, got 37");
  CheckDecodeFails(PackMap(HeaderFields(4, {{"ns", ArrayOf({Bin(51)})}})),
                   "field 'a.ns[0]': expected bin of 38 or 50 bytes, got 51");
  CheckDecodeFails(PackMap(HeaderFields(4, {{"ns", ArrayOf({})}, {"tk", Bin(33)}})),
                   "field 'a.tk': bin of 33 bytes, more than the limit of 32");
  CheckDecodeFails(PackMap(HeaderFields(127, {{"c", Uint(1)}, {"m", Str(std::string(201, 'm'))}})),
                   "field 'a.m': str of 201 bytes, more than the limit of 200");
  std::vector<PackFn> too_many(kNodesPerReplyMax + 1, Nil());
  CheckDecodeFails(PackMap(HeaderFields(4, {{"ns", ArrayOf(too_many)}})),
                   "field 'a.ns': 33 items, more than the limit of 32");
}

TEST_CASE("the bodies of FIND_VALUE, VALUES, STORE, LISTEN and PUSH follow their rules", "[unit]") {
  const PackFn record = ArrayOf({Bin(3), Bin(64)});
  const Fields values = {{"ns", ArrayOf({})}, {"rs", ArrayOf({record})}, {"tt", Uint(1)}};
  const Fields store = {{"tg", Bin(32)}, {"tk", Bin(2)}, {"rc", record}, {"lt", Uint(60)}};
  const PackFn gone = ArrayOf({Bin(32), Str("agent"), Str("skill"), Uint(1)});
  // Optional fields may be left out.
  CHECK(
      std::get<FindValueBody>(DecodeOk(PackMap(HeaderFields(5, {{"tg", Bin(32)}}))).body).cursor ==
      0);
  const auto decoded_values = std::get<ValuesBody>(DecodeOk(PackMap(HeaderFields(6, values))).body);
  CHECK(decoded_values.token.empty());
  CHECK_FALSE(decoded_values.next);
  CHECK(std::get<PushBody>(DecodeOk(PackMap(HeaderFields(11, {{"tg", Bin(32)}}))).body) ==
        PushBody{Key(Filled<32>(1)), std::nullopt, std::nullopt});
  CHECK(
      DecodeOk(PackMap(HeaderFields(11, {{"tg", Bin(32)}, {"rc", record}, {"gn", gone}}))).type() ==
      11);
  // Required ones may not: "tk" is optional in NODES and VALUES but required in STORE.
  CheckDecodeFails(PackMap(HeaderFields(5)), "field 'a.tg': missing");
  CheckDecodeFails(PackMap(HeaderFields(6, Without(values, "rs"))), "field 'a.rs': missing");
  CheckDecodeFails(PackMap(HeaderFields(6, Without(values, "tt"))), "field 'a.tt': missing");
  CheckDecodeFails(PackMap(HeaderFields(6, Without(values, "ns"))), "field 'a.ns': missing");
  for (const char* key : {"tg", "tk", "rc", "lt"}) {
    INFO("STORE without " << key);
    CheckDecodeFails(PackMap(HeaderFields(7, Without(store, key))),
                     "field 'a." + std::string(key) + "': missing");
  }
  CheckDecodeFails(PackMap(HeaderFields(9, {{"tg", Bin(32)}})), "field 'a.lt': missing");
  CheckDecodeFails(PackMap(HeaderFields(9, {{"lt", Uint(1)}})), "field 'a.tg': missing");
  CheckDecodeFails(PackMap(HeaderFields(10)), "field 'a.lt': missing");
  CheckDecodeFails(PackMap(HeaderFields(11, {{"rc", record}})), "field 'a.tg': missing");
  // Shapes and limits.
  CheckDecodeFails(PackMap(HeaderFields(10, {{"lt", Uint(0x100000000)}})),
                   "field 'a.lt': 4294967296 is out of range");
  CheckDecodeFails(PackMap(HeaderFields(5, {{"tg", Bin(32)}, {"cu", Int(-1)}})),
                   "field 'a.cu': expected uint, got negative int");
  CheckDecodeFails(PackMap(HeaderFields(6, With(values, "nx", Str("2")))),
                   "field 'a.nx': expected uint, got str");
  CheckDecodeFails(
      PackMap(HeaderFields(
          6, With(values, "rs", ArrayOf(std::vector<PackFn>(kRecordsPerReplyMax + 1, Nil()))))),
      "field 'a.rs': 17 items, more than the limit of 16");
  CheckDecodeFails(PackMap(HeaderFields(6, With(values, "rs", ArrayOf({ArrayOf({Bin(3)})})))),
                   "field 'a.rs[0]': expected [record, signature]");
  CHECK(std::get<ValuesBody>(
            DecodeOk(PackMap(HeaderFields(6, With(values, "lf", ArrayOf({Uint(90)}))))).body)
            .lifetimes == std::vector<uint32_t>{90});
  CheckDecodeFails(PackMap(HeaderFields(6, With(values, "lf", ArrayOf({Uint(1), Uint(2)})))),
                   "field 'a.lf': 2 lifetimes for 1 records");
  CheckDecodeFails(PackMap(HeaderFields(6, With(values, "lf", ArrayOf({Str("9")})))),
                   "field 'a.lf[0]': expected uint, got str");
  CheckDecodeFails(PackMap(HeaderFields(6, With(values, "lf", Uint(9)))),
                   "field 'a.lf': expected array");
  CheckDecodeFails(PackMap(HeaderFields(7, With(store, "rc", ArrayOf({Bin(3), Bin(63)})))),
                   "field 'a.rc': expected bin of 64 bytes, got 63");
  CheckDecodeFails(PackMap(HeaderFields(7, With(store, "rc", ArrayOf({Str("r"), Bin(64)})))),
                   "field 'a.rc': expected bin, got str");
  CheckDecodeFails(PackMap(HeaderFields(7, With(store, "tk", Bin(kTokenSizeMax + 1)))),
                   "field 'a.tk': bin of 33 bytes, more than the limit of 32");
  CheckDecodeFails(
      PackMap(HeaderFields(11, {{"tg", Bin(32)}, {"gn", ArrayOf({Bin(32), Str("a"), Str("s")})}})),
      "field 'a.gn': expected [publisher, agentId, skillId, sequence]");
  CheckDecodeFails(
      PackMap(HeaderFields(
          11, {{"tg", Bin(32)},
               {"gn", ArrayOf({Bin(32), Str(std::string(257, 'a')), Str("s"), Uint(1)})}})),
      "field 'a.gn[1]': str of 257 bytes, more than the limit of 256");
  CheckDecodeFails(
      PackMap(HeaderFields(
          11, {{"tg", Bin(32)}, {"gn", ArrayOf({Bin(31), Str("a"), Str("s"), Uint(1)})}})),
      "field 'a.gn[0]': expected bin of 32 bytes, got 31");
  CheckDecodeFails(
      PackMap(HeaderFields(6, With(values, "ns", ArrayOf({BinOf(ContactBytes(4, 0))})))),
      "field 'a.ns[0]': port 0 is not a valid peer port");
}

TEST_CASE("a record by reference is [digest of 32 bytes, uint32 size, signature]", "[unit]") {
  const Fields store = {{"tg", Bin(32)}, {"tk", Bin(2)}, {"lt", Uint(60)}};
  const auto store_with = [&store](const PackFn& record) {
    return PackMap(HeaderFields(7, With(store, "rc", record)));
  };
  const auto body =
      std::get<StoreBody>(DecodeOk(store_with(ArrayOf({Bin(32, 7), Uint(3000), Bin(64, 8)}))).body);
  REQUIRE(body.record.reference.has_value());
  CHECK(body.record.reference->digest == Filled<32>(7));
  CHECK(body.record.reference->size == 3000);
  CHECK(body.record.signature == Filled<64>(8));
  CHECK(body.record.encoded.empty());
  CheckDecodeFails(store_with(ArrayOf({Bin(31), Uint(3000), Bin(64)})),
                   "field 'a.rc': expected bin of 32 bytes, got 31");
  CheckDecodeFails(store_with(ArrayOf({Bin(32), Uint(0x100000000), Bin(64)})),
                   "field 'a.rc': 4294967296 is out of range");
  CheckDecodeFails(store_with(ArrayOf({Bin(32), Str("3000"), Bin(64)})),
                   "field 'a.rc': expected uint, got str");
  CheckDecodeFails(store_with(ArrayOf({Bin(32), Uint(3000), Bin(63)})),
                   "field 'a.rc': expected bin of 64 bytes, got 63");
  CheckDecodeFails(store_with(ArrayOf({Bin(32), Uint(1), Bin(64), Nil()})),
                   "field 'a.rc': 4 items, more than the limit of 3");
}

TEST_CASE("port 0 in a contact or an observed address is an error", "[unit]") {
  CheckDecodeFails(PackMap(HeaderFields(4, {{"ns", ArrayOf({BinOf(ContactBytes(16, 0))})}})),
                   "field 'a.ns[0]': port 0 is not a valid peer port");
  CheckDecodeFails(PackMap(With(HeaderFields(2), "o", BinOf({127, 0, 0, 1, 0, 0}))),
                   "field 'o': port 0");
  CHECK(Decode(PackMap(HeaderFields(4, {{"ns", ArrayOf({BinOf(ContactBytes(16, 1))})}}))));
}

TEST_CASE("a known key given twice is an error, an unknown one is not", "[unit]") {
  Fields twice = HeaderFields(1);
  twice.push_back({"id", Bin(32)});
  CheckDecodeFails(PackMap(twice), "field 'id': given twice");
  CheckDecodeFails(PackMap(HeaderFields(3, {{"tg", Bin(32)}, {"tg", Bin(32)}})),
                   "field 'a.tg': given twice");
  Fields unknown_twice = HeaderFields(1);
  unknown_twice.push_back({"x", Uint(1)});
  unknown_twice.push_back({"x", Uint(2)});
  CHECK(Decode(PackMap(unknown_twice)));
}

}  // namespace
}  // namespace skillnode::kademlia::wire
