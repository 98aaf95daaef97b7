// Internals of the wire codec (kademlia/wire/wire.h), shared by wire.cpp (types and encoding) and
// wire_decode.cpp (decoding). Private to those two files: nothing else may include it, and
// nothing here is part of the codec's interface.
//
// Everything is inline or a constant, so each file gets the same definitions with no extra
// translation unit. FieldReader reads fields straight from msgpack::object's tagged union after
// a type check (never with object::as<T>(), which throws), so nothing here throws on input.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_INTERNAL_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_INTERNAL_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

// msgpack-cxx builds warning-free here with -Wall -Wextra -Wpedantic -Werror under g++ 12 and
// clang 14, with and without sanitizers (it is found in /usr/include, a system directory), so
// no diagnostic is silenced.
#include <msgpack.hpp>

#include "kademlia/wire/encoding.h"
#include "kademlia/wire/msgpack_out.h"
#include "kademlia/wire/wire.h"

namespace skillnode::kademlia::wire_internal {

// Message keys, as listed in wire.h.
inline constexpr std::string_view kKeyVersion = "v";
inline constexpr std::string_view kKeyNetwork = "n";
inline constexpr std::string_view kKeyTxid = "t";
inline constexpr std::string_view kKeyType = "y";
inline constexpr std::string_view kKeyId = "id";
inline constexpr std::string_view kKeyPublicKey = "k";
inline constexpr std::string_view kKeyProofWanted = "p";
inline constexpr std::string_view kKeyProof = "s";
inline constexpr std::string_view kKeyObserved = "o";
inline constexpr std::string_view kKeyBody = "a";
// Body keys.
inline constexpr std::string_view kKeyTarget = "tg";
inline constexpr std::string_view kKeyNodes = "ns";
inline constexpr std::string_view kKeyToken = "tk";
inline constexpr std::string_view kKeyErrorCode = "c";
inline constexpr std::string_view kKeyErrorText = "m";
inline constexpr std::string_view kKeyCursor = "cu";
inline constexpr std::string_view kKeyRecords = "rs";
inline constexpr std::string_view kKeyTotal = "tt";
inline constexpr std::string_view kKeyNext = "nx";
inline constexpr std::string_view kKeyLifetimes = "lf";
inline constexpr std::string_view kKeyRecord = "rc";
inline constexpr std::string_view kKeyLifetime = "lt";
inline constexpr std::string_view kKeyGone = "gn";
inline constexpr std::string_view kKeyHolders = "hs";
inline constexpr std::string_view kKeyDigest = "dg";
inline constexpr std::string_view kKeyOffset = "of";
inline constexpr std::string_view kKeyLength = "ln";
inline constexpr std::string_view kKeySize = "sz";
inline constexpr std::string_view kKeyBytes = "by";
inline constexpr std::string_view kKeyHoldsToo = "me";
// Text limits inside a "gn" entry (skill_record.h allows 128 characters per id).
inline constexpr size_t kGoneIdSizeMax = 256;
// A record's canonical encoding is at most kRecordEncodedSizeMax (skill_record.h) bytes; the
// wire accepts up to a datagram, and the record decoder applies the exact limit.
inline constexpr size_t kWireRecordSizeMax = kDatagramSizeMax;

inline constexpr size_t kPortSize = 2;
inline constexpr size_t kPublicKeySize = std::tuple_size_v<PublicKey>;
inline constexpr size_t kSignatureSize = std::tuple_size_v<Signature>;
// A contact's bin header in "ns": bin8 (0xc4, length), as every contact is under 256 bytes.
inline constexpr size_t kContactHeaderSize = 2;
inline constexpr uint8_t kTypeFindValue = 5;
inline constexpr uint8_t kTypeValues = 6;
inline constexpr uint8_t kTypeStore = 7;
inline constexpr uint8_t kTypeStored = 8;
inline constexpr uint8_t kTypeListen = 9;
inline constexpr uint8_t kTypeListening = 10;
inline constexpr uint8_t kTypePush = 11;
inline constexpr uint8_t kTypePushAck = 12;

constexpr uint8_t TypeNumber(MessageType type) { return static_cast<uint8_t>(type); }
// Fields every header carries: v, n, t, y, id, k, a.
inline constexpr uint32_t kHeaderFieldsAlways = 7;

// ---- Encoding helpers ------------------------------------------------------------------

// VectorSink, Packer, PackStr and PackBin are in kademlia/msgpack_out.h.
using kademlia::PackBin;
using kademlia::Packer;
using kademlia::PackStr;
using kademlia::VectorSink;

// The most bytes AppendEndpoint writes: an IPv6 address and a port.
inline constexpr size_t kEndpointBytesMax = 16 + 2;

inline void AppendEndpoint(const Endpoint& endpoint, std::vector<uint8_t>& out) {
  const auto address = endpoint.address().bytes();
  out.insert(out.end(), address.begin(), address.end());
  out.push_back(static_cast<uint8_t>(endpoint.port() >> 8));
  out.push_back(static_cast<uint8_t>(endpoint.port() & 0xff));
}

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

// True for the types this version has a body for.
inline bool IsKnownType(uint8_t type) {
  switch (static_cast<MessageType>(type)) {
    case MessageType::kPing:
    case MessageType::kPong:
    case MessageType::kFindNode:
    case MessageType::kNodes:
    case MessageType::kFindValue:
    case MessageType::kValues:
    case MessageType::kStore:
    case MessageType::kStored:
    case MessageType::kListen:
    case MessageType::kListening:
    case MessageType::kPush:
    case MessageType::kPushAck:
    case MessageType::kBlobFind:
    case MessageType::kBlobHolders:
    case MessageType::kBlobAnnounce:
    case MessageType::kBlobGet:
    case MessageType::kBlobData:
    case MessageType::kError:
      return true;
  }
  return false;
}

// ---- Decoding helpers ------------------------------------------------------------------

inline std::string_view ObjectTypeName(const msgpack::object& object) {
  switch (object.type) {
    case msgpack::type::NIL:
      return "nil";
    case msgpack::type::BOOLEAN:
      return "bool";
    case msgpack::type::POSITIVE_INTEGER:
      return "uint";
    case msgpack::type::NEGATIVE_INTEGER:
      return "negative int";
    case msgpack::type::FLOAT32:
      return "float32";
    case msgpack::type::FLOAT64:
      return "float64";
    case msgpack::type::STR:
      return "str";
    case msgpack::type::BIN:
      return "bin";
    case msgpack::type::ARRAY:
      return "array";
    case msgpack::type::MAP:
      return "map";
    case msgpack::type::EXT:
      return "ext";
  }
  return "unknown";
}

inline std::string_view StrOf(const msgpack::object& object) {
  if (object.via.str.size == 0) return {};
  return {object.via.str.ptr, object.via.str.size};
}

inline std::span<const uint8_t> BinOf(const msgpack::object& object) {
  if (object.via.bin.size == 0) return {};
  return {reinterpret_cast<const uint8_t*>(object.via.bin.ptr), object.via.bin.size};
}

// Exactly N bytes into an array; all zero when `bytes` has another size (after an error).
template <size_t N>
std::array<uint8_t, N> ToArray(std::span<const uint8_t> bytes) {
  std::array<uint8_t, N> out{};
  if (bytes.size() == N) std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

// The value of each key in `keys` within one map, or null when absent.
template <size_t N>
using Fields = std::array<const msgpack::object*, N>;

// Reads typed fields out of msgpack objects. It keeps the first problem, and once it has one
// every read returns a default, so a decoder reads all its fields and checks ok() once.
class FieldReader {
 public:
  bool ok() const { return !error_; }
  Error TakeError() { return std::move(*error_); }

  void Problem(std::string_view field, std::string problem) {
    if (error_) return;
    error_ = Error{ErrorCode::kParse, "field '" + std::string(field) + "': " + problem};
  }

  // The known keys of a map. Keys that are not strings, and unknown keys, are skipped.
  template <size_t N>
  Fields<N> Index(const msgpack::object& map, const std::array<std::string_view, N>& keys,
                  std::string_view prefix) {
    Fields<N> fields{};
    for (uint32_t i = 0; i < map.via.map.size && ok(); ++i) {
      const msgpack::object_kv& pair = map.via.map.ptr[i];
      if (pair.key.type != msgpack::type::STR) continue;
      const std::string_view key = StrOf(pair.key);
      for (size_t k = 0; k < N; ++k) {
        // Keys are one or two characters: compare the first one before the whole key.
        if (key.empty() || key[0] != keys[k][0] || key != keys[k]) continue;
        if (fields[k]) Problem(std::string(prefix) + std::string(keys[k]), "given twice");
        fields[k] = &pair.val;
        break;  // the keys are distinct
      }
    }
    return fields;
  }

  uint64_t Uint(const msgpack::object* object, std::string_view field, uint64_t max) {
    if (!Present(object, field)) return 0;
    if (object->type != msgpack::type::POSITIVE_INTEGER) {
      Problem(field, "expected uint, got " + std::string(ObjectTypeName(*object)));
      return 0;
    }
    if (object->via.u64 > max) {
      Problem(field, std::to_string(object->via.u64) + " is out of range (0.." +
                         std::to_string(max) + ")");
      return 0;
    }
    return object->via.u64;
  }

  bool Bool(const msgpack::object* object, std::string_view field) {
    if (!Present(object, field)) return false;
    if (object->type != msgpack::type::BOOLEAN) {
      Problem(field, "expected bool, got " + std::string(ObjectTypeName(*object)));
      return false;
    }
    return object->via.boolean;
  }

  // A bin of `size` bytes, or of `other_size` when that is not 0.
  std::span<const uint8_t> Bin(const msgpack::object* object, std::string_view field, size_t size,
                               size_t other_size = 0) {
    if (!Present(object, field)) return {};
    const bool is_bin = object->type == msgpack::type::BIN;
    const size_t got = is_bin ? object->via.bin.size : 0;
    if (is_bin && (got == size || (other_size != 0 && got == other_size))) return BinOf(*object);
    std::string expected = "expected bin of " + std::to_string(size);
    if (other_size != 0) expected += " or " + std::to_string(other_size);
    Problem(field, expected + " bytes, got " +
                       (is_bin ? std::to_string(got) : std::string(ObjectTypeName(*object))));
    return {};
  }

  // A bin or str (per `type`) of at most `size_max` bytes.
  std::span<const uint8_t> Bytes(const msgpack::object* object, std::string_view field,
                                 msgpack::type::object_type type, size_t size_max) {
    if (!Present(object, field)) return {};
    const std::string_view name = type == msgpack::type::BIN ? "bin" : "str";
    if (object->type != type) {
      Problem(field,
              "expected " + std::string(name) + ", got " + std::string(ObjectTypeName(*object)));
      return {};
    }
    const std::span<const uint8_t> bytes =
        type == msgpack::type::BIN ? BinOf(*object) : AsBytes(StrOf(*object));
    if (bytes.size() > size_max) {
      Problem(field, std::string(name) + " of " + std::to_string(bytes.size()) +
                         " bytes, more than the limit of " + std::to_string(size_max));
      return {};
    }
    return bytes;
  }

  // `object` when it is a map (or an array of at most `size_max`), else null.
  const msgpack::object* Container(const msgpack::object* object, std::string_view field,
                                   msgpack::type::object_type type, size_t size_max = 0) {
    if (!Present(object, field)) return nullptr;
    if (object->type != type) {
      Problem(field, std::string("expected ") + (type == msgpack::type::MAP ? "map" : "array") +
                         ", got " + std::string(ObjectTypeName(*object)));
      return nullptr;
    }
    if (type == msgpack::type::ARRAY && object->via.array.size > size_max) {
      Problem(field, std::to_string(object->via.array.size) + " items, more than the limit of " +
                         std::to_string(size_max));
      return nullptr;
    }
    return object;
  }

  // Address bytes followed by a big-endian port, as in "o" and the tail of a contact.
  std::optional<Endpoint> EndpointOf(std::span<const uint8_t> bytes, std::string_view field) {
    if (!ok() || bytes.size() < kPortSize) return std::nullopt;
    auto address = Address::FromBytes(bytes.first(bytes.size() - kPortSize));
    if (!address) {
      Problem(field, address.error().message);
      return std::nullopt;
    }
    const auto port = static_cast<uint16_t>(bytes[bytes.size() - 2] << 8 | bytes.back());
    if (port == 0) {
      Problem(field, "port 0 is not a valid peer port");
      return std::nullopt;
    }
    return Endpoint(*address, port);
  }

 private:
  bool Present(const msgpack::object* object, std::string_view field) {
    if (!ok()) return false;
    if (!object) Problem(field, "missing");
    return object != nullptr;
  }

  std::optional<Error> error_;
};

// ---- Shared by the codec's files ----------------------------------------------------------

// Packs a contact list ("ns", "hs"): each contact a bin of id, address and port (wire.cpp).
void PackContacts(const std::vector<WireContact>& contacts, Packer& packer);
// Reads a contact list of at most `max` contacts from `object` (wire_decode.cpp); `field` is
// the list's name in errors ("a.ns" gives "a.ns[3]").
std::vector<WireContact> ReadContacts(const msgpack::object* object, std::string_view field,
                                      size_t max, FieldReader& reader);
// Refuses what the blob bodies' limits forbid (wire_blobs.cpp); other bodies pass.
Result<void> CheckBlobEncodable(const Body& body);
// Packs the body ("a"'s value) of a blob type; false for other bodies (wire_blobs.cpp).
bool PackBlobBody(const Body& body, Packer& packer);
// Reads the body of a blob type from its map (wire_blobs.cpp).
Body ReadBlobBody(MessageType type, const msgpack::object& map, FieldReader& reader);

}  // namespace skillnode::kademlia::wire_internal

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_INTERNAL_H_
