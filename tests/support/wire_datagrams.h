// Hand-built datagrams for the wire codec's robustness tests (wire_malformed_test.cpp,
// wire_damaged_test.cpp): valid messages to start from, a msgpack builder for datagrams the
// encoder would never make, and the check that decoding fails naming the problem.
#ifndef SKILLNODE_TESTS_SUPPORT_WIRE_DATAGRAMS_H_
#define SKILLNODE_TESTS_SUPPORT_WIRE_DATAGRAMS_H_

#include <catch2/catch.hpp>
#include <functional>
#include <msgpack.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire_datagrams {

// ---- Valid messages ----------------------------------------------------------------------

inline transport::Endpoint Ep(std::string_view text) { return *transport::Endpoint::Parse(text); }

template <size_t N>
std::array<uint8_t, N> Filled(uint8_t value) {
  std::array<uint8_t, N> out;
  out.fill(value);
  return out;
}

inline wire::Header MinimalHeader() {
  wire::Header header;
  header.network_id = 7;
  header.txid = 0x0102030405060708;
  header.sender_id = Key::Sha256("sender");
  header.sender_key = Filled<32>(0xab);
  return header;
}

// Every optional field set, and every integer at its widest encoding.
inline wire::Header FullHeader() {
  wire::Header header = MinimalHeader();
  header.network_id = 0xffffffff;
  header.txid = 0xffffffffffffffff;
  header.proof_wanted = true;
  header.proof = Filled<64>(0x5a);
  header.observed = Ep("[2001:db8::1:2:3:4]:65535");
  return header;
}

inline wire::WireContact Contact(int i, bool v6) {
  const std::string port = std::to_string(1000 + i);
  return {Key::Sha256("contact " + std::to_string(i)),
          Ep(v6 ? "[2001:db8:ffff:ffff:ffff:ffff:ffff:" + std::to_string(i) + "]:" + port
                : "10.1.2." + std::to_string(i) + ":" + port)};
}

inline std::vector<wire::WireContact> Contacts(int count, bool v6) {
  std::vector<wire::WireContact> out;
  for (int i = 1; i <= count; ++i) out.push_back(Contact(i, v6));
  return out;
}

inline std::vector<uint8_t> EncodeOk(const wire::Message& message) {
  auto bytes = wire::Encode(message);
  INFO((bytes ? "" : bytes.error().ToString()));
  REQUIRE(bytes);
  return *bytes;
}

inline wire::Message DecodeOk(std::span<const uint8_t> bytes) {
  auto message = wire::Decode(bytes);
  INFO((message ? "" : message.error().ToString()));
  REQUIRE(message);
  return *message;
}

// Messages whose bodies carry records, contacts and nested arrays, for the truncation and
// bit-flip tests.
inline std::vector<wire::Message> MessagesWithRecords() {
  wire::Header header = FullHeader();
  header.observed = Ep("192.0.2.1:6881");
  const wire::WireRecord record{{0x9f, 1, 2, 3}, Filled<64>(5)};
  return {
      {header,
       wire::NodesBody{{Contact(1, false), Contact(2, true)}, std::vector<uint8_t>(4, 1), {}}},
      {header, wire::ValuesBody{{Contact(1, false)}, {1, 2}, {record, record}, 5, 2, {}, {}, {}}},
      {MinimalHeader(), wire::StoreBody{Key::Sha256("s"), {3, 4}, record, 600}},
      {MinimalHeader(), wire::PushBody{Key::Sha256("p"), record,
                                       wire::GoneRecord{Filled<32>(8), "agent", "skill", 300}}},
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

inline PackFn Uint(uint64_t v) {
  return [v](Packer& p) { p.pack_uint64(v); };
}
inline PackFn Int(int64_t v) {
  return [v](Packer& p) { p.pack_int64(v); };
}
inline PackFn Str(std::string s) {
  return [s](Packer& p) { p.pack(s); };
}
inline PackFn Bin(size_t size, uint8_t fill = 1) {
  return [=](Packer& p) {
    const std::string bytes(size, static_cast<char>(fill));
    p.pack_bin(static_cast<uint32_t>(size));
    p.pack_bin_body(bytes.data(), static_cast<uint32_t>(size));
  };
}
inline PackFn BinOf(std::vector<uint8_t> bytes) {
  return [bytes](Packer& p) {
    p.pack_bin(static_cast<uint32_t>(bytes.size()));
    p.pack_bin_body(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<uint32_t>(bytes.size()));
  };
}
inline PackFn Bool(bool b) {
  return [b](Packer& p) { b ? p.pack_true() : p.pack_false(); };
}
inline PackFn Nil() {
  return [](Packer& p) { p.pack_nil(); };
}
inline PackFn MapOf(Fields fields) {
  return [fields](Packer& p) {
    p.pack_map(static_cast<uint32_t>(fields.size()));
    for (const Field& f : fields) {
      p.pack(f.key);
      f.value(p);
    }
  };
}
inline PackFn ArrayOf(std::vector<PackFn> items) {
  return [items](Packer& p) {
    p.pack_array(static_cast<uint32_t>(items.size()));
    for (const PackFn& item : items) item(p);
  };
}

inline std::vector<uint8_t> Pack(const PackFn& fn) {
  msgpack::sbuffer buffer;
  Packer packer(buffer);
  fn(packer);
  return {buffer.data(), buffer.data() + buffer.size()};
}
inline std::vector<uint8_t> PackMap(const Fields& fields) { return Pack(MapOf(fields)); }

// The header fields of a valid message of `type`, followed by "a".
inline Fields HeaderFields(uint64_t type, Fields body = {}) {
  return {{"v", Uint(1)},  {"n", Uint(7)},    {"t", Uint(42)},   {"y", Uint(type)},
          {"id", Bin(32)}, {"k", Bin(32, 2)}, {"a", MapOf(body)}};
}

// A contact as raw bytes: id, address, port (big-endian).
inline std::vector<uint8_t> ContactBytes(size_t address_size, uint16_t port) {
  std::vector<uint8_t> out(Key::kSize + address_size, 3);
  out.push_back(static_cast<uint8_t>(port >> 8));
  out.push_back(static_cast<uint8_t>(port));
  return out;
}

inline Fields With(Fields fields, const std::string& key, PackFn value) {
  for (Field& f : fields) {
    if (f.key == key) {
      f.value = std::move(value);
      return fields;
    }
  }
  fields.push_back({key, std::move(value)});
  return fields;
}

inline Fields Without(Fields fields, const std::string& key) {
  std::erase_if(fields, [&](const Field& f) { return f.key == key; });
  return fields;
}

// Decoding must fail, with a message containing `says`.
inline void CheckDecodeFails(std::span<const uint8_t> bytes, const std::string& says) {
  auto message = wire::Decode(bytes);
  REQUIRE_FALSE(message);
  CHECK(message.error().code == transport::ErrorCode::kParse);
  CHECK_THAT(message.error().message, Catch::Contains(says));
}
}  // namespace skillnode::kademlia::wire_datagrams

#endif  // SKILLNODE_TESTS_SUPPORT_WIRE_DATAGRAMS_H_
