// Hand-built datagrams for the wire codec (kademlia/wire/wire.h): forward compatibility, and every
// malformed, truncated, bit-flipped and random input. Round trips and encoding rules are in
// wire_test.cpp.
#include <catch2/catch.hpp>
#include <functional>
#include <msgpack.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/wire.h"
#include "transport/rng.h"

namespace skillnode::kademlia {
namespace {

// ---- Valid messages ----------------------------------------------------------------------
// (A few of wire_test.cpp's helpers, repeated: the two files share no header.)

Endpoint Ep(std::string_view text) { return *Endpoint::Parse(text); }

template <size_t N>
std::array<uint8_t, N> Filled(uint8_t value) {
  std::array<uint8_t, N> out;
  out.fill(value);
  return out;
}

Header MinimalHeader() {
  Header header;
  header.network_id = 7;
  header.txid = 0x0102030405060708;
  header.sender_id = Key::Sha256("sender");
  header.sender_key = Filled<32>(0xab);
  return header;
}

// Every optional field set, and every integer at its widest encoding.
Header FullHeader() {
  Header header = MinimalHeader();
  header.network_id = 0xffffffff;
  header.txid = 0xffffffffffffffff;
  header.proof_wanted = true;
  header.proof = Filled<64>(0x5a);
  header.observed = Ep("[2001:db8::1:2:3:4]:65535");
  return header;
}

WireContact Contact(int i, bool v6) {
  const std::string port = std::to_string(1000 + i);
  return {Key::Sha256("contact " + std::to_string(i)),
          Ep(v6 ? "[2001:db8:ffff:ffff:ffff:ffff:ffff:" + std::to_string(i) + "]:" + port
                : "10.1.2." + std::to_string(i) + ":" + port)};
}

std::vector<WireContact> Contacts(int count, bool v6) {
  std::vector<WireContact> out;
  for (int i = 1; i <= count; ++i) out.push_back(Contact(i, v6));
  return out;
}

std::vector<uint8_t> EncodeOk(const Message& message) {
  auto bytes = Encode(message);
  INFO((bytes ? "" : bytes.error().ToString()));
  REQUIRE(bytes);
  return *bytes;
}

Message DecodeOk(std::span<const uint8_t> bytes) {
  auto message = Decode(bytes);
  INFO((message ? "" : message.error().ToString()));
  REQUIRE(message);
  return *message;
}

// Messages whose bodies carry records, contacts and nested arrays, for the truncation and
// bit-flip tests.
std::vector<Message> MessagesWithRecords() {
  Header header = FullHeader();
  header.observed = Ep("192.0.2.1:6881");
  const WireRecord record{{0x9f, 1, 2, 3}, Filled<64>(5)};
  return {
      {header, NodesBody{{Contact(1, false), Contact(2, true)}, std::vector<uint8_t>(4, 1)}},
      {header, ValuesBody{{Contact(1, false)}, {1, 2}, {record, record}, 5, 2, {}}},
      {MinimalHeader(), StoreBody{Key::Sha256("s"), {3, 4}, record, 600}},
      {MinimalHeader(),
       PushBody{Key::Sha256("p"), record, GoneRecord{Filled<32>(8), "agent", "skill", 300}}},
  };
}

// ---- Hand-built datagrams --------------------------------------------------------------

using Packer = msgpack::packer<msgpack::sbuffer>;
using PackFn = std::function<void(Packer&)>;
struct Field {
  std::string key;
  PackFn value;
};
using Fields = std::vector<Field>;

PackFn Uint(uint64_t v) {
  return [v](Packer& p) { p.pack_uint64(v); };
}
PackFn Int(int64_t v) {
  return [v](Packer& p) { p.pack_int64(v); };
}
PackFn Str(std::string s) {
  return [s](Packer& p) { p.pack(s); };
}
PackFn Bin(size_t size, uint8_t fill = 1) {
  return [=](Packer& p) {
    const std::string bytes(size, static_cast<char>(fill));
    p.pack_bin(static_cast<uint32_t>(size));
    p.pack_bin_body(bytes.data(), static_cast<uint32_t>(size));
  };
}
PackFn BinOf(std::vector<uint8_t> bytes) {
  return [bytes](Packer& p) {
    p.pack_bin(static_cast<uint32_t>(bytes.size()));
    p.pack_bin_body(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<uint32_t>(bytes.size()));
  };
}
PackFn Bool(bool b) {
  return [b](Packer& p) { b ? p.pack_true() : p.pack_false(); };
}
PackFn Nil() {
  return [](Packer& p) { p.pack_nil(); };
}
PackFn MapOf(Fields fields) {
  return [fields](Packer& p) {
    p.pack_map(static_cast<uint32_t>(fields.size()));
    for (const Field& f : fields) {
      p.pack(f.key);
      f.value(p);
    }
  };
}
PackFn ArrayOf(std::vector<PackFn> items) {
  return [items](Packer& p) {
    p.pack_array(static_cast<uint32_t>(items.size()));
    for (const PackFn& item : items) item(p);
  };
}

std::vector<uint8_t> Pack(const PackFn& fn) {
  msgpack::sbuffer buffer;
  Packer packer(buffer);
  fn(packer);
  return {buffer.data(), buffer.data() + buffer.size()};
}
std::vector<uint8_t> PackMap(const Fields& fields) { return Pack(MapOf(fields)); }

// The header fields of a valid message of `type`, followed by "a".
Fields HeaderFields(uint64_t type, Fields body = {}) {
  return {{"v", Uint(1)},  {"n", Uint(7)},    {"t", Uint(42)},   {"y", Uint(type)},
          {"id", Bin(32)}, {"k", Bin(32, 2)}, {"a", MapOf(body)}};
}

// A contact as raw bytes: id, address, port (big-endian).
std::vector<uint8_t> ContactBytes(size_t address_size, uint16_t port) {
  std::vector<uint8_t> out(Key::kSize + address_size, 3);
  out.push_back(static_cast<uint8_t>(port >> 8));
  out.push_back(static_cast<uint8_t>(port));
  return out;
}

Fields With(Fields fields, const std::string& key, PackFn value) {
  for (Field& f : fields) {
    if (f.key == key) {
      f.value = std::move(value);
      return fields;
    }
  }
  fields.push_back({key, std::move(value)});
  return fields;
}

Fields Without(Fields fields, const std::string& key) {
  std::erase_if(fields, [&](const Field& f) { return f.key == key; });
  return fields;
}

// Decoding must fail, with a message containing `says`.
void CheckDecodeFails(std::span<const uint8_t> bytes, const std::string& says) {
  auto message = Decode(bytes);
  REQUIRE_FALSE(message);
  CHECK(message.error().code == ErrorCode::kParse);
  CHECK_THAT(message.error().message, Catch::Contains(says));
}

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
  const Message message = DecodeOk(PackMap(fields));
  CHECK(message.header.version == 1);
  CHECK(message.header.txid == 42);
  CHECK_FALSE(message.header.proof_wanted);
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

TEST_CASE("empty, oversize, trailing and non-map datagrams are errors", "[unit]") {
  CheckDecodeFails({}, "empty datagram");
  const std::vector<uint8_t> oversize(kDatagramSizeMax + 1, 0x90);
  CheckDecodeFails(oversize, "1281 bytes, more than the 1280-byte limit");
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
  Rng rng(20240601);
  const auto valid = EncodeOk({FullHeader(), NodesBody{Contacts(3, true), {1, 2}}});
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
}  // namespace skillnode::kademlia
