// FieldReader: reads typed fields out of unpacked msgpack objects for the wire codec's decoder
// (wire_decode.cpp, the header) and BodyReader (wire_body_reader.cpp, the bodies), naming the
// field and the problem in its error. It reads straight from msgpack::object's tagged union
// after a type check (never with object::as<T>(), which throws), so nothing here throws on
// input. Internal to the wire codec; inline, as it sits on the decoding hot path.
#ifndef SKILLNODE_KADEMLIA_WIRE_WIRE_FIELD_READER_H_
#define SKILLNODE_KADEMLIA_WIRE_WIRE_FIELD_READER_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

// msgpack-cxx builds warning-free with -Wall -Wextra -Wpedantic -Werror (see msgpack_out.h).
#include <msgpack.hpp>

#include "kademlia/wire/encoding.h"
#include "kademlia/wire/wire.h"
#include "kademlia/wire/wire_internal.h"

namespace skillnode::kademlia::wire::wire_internal {

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
  transport::Error TakeError() { return std::move(*error_); }

  void Problem(std::string_view field, std::string problem) {
    if (error_) return;
    error_ = transport::Error{transport::ErrorCode::kParse,
                              "field '" + std::string(field) + "': " + problem};
  }

  // The known keys of a map: out[k] is the value of keys[k], or null when absent (`out` holds
  // at least keys.size() entries). Keys that are not strings, and unknown keys, are skipped.
  void Index(const msgpack::object& map, std::span<const std::string_view> keys,
             std::string_view prefix, std::span<const msgpack::object*> out) {
    std::fill_n(out.begin(), keys.size(), nullptr);
    for (uint32_t i = 0; i < map.via.map.size && ok(); ++i) {
      const msgpack::object_kv& pair = map.via.map.ptr[i];
      if (pair.key.type != msgpack::type::STR) continue;
      const std::string_view key = StrOf(pair.key);
      for (size_t k = 0; k < keys.size(); ++k) {
        // Keys are one or two characters: compare the first one before the whole key.
        if (key.empty() || key[0] != keys[k][0] || key != keys[k]) continue;
        if (out[k]) Problem(std::string(prefix) + std::string(keys[k]), "given twice");
        out[k] = &pair.val;
        break;  // the keys are distinct
      }
    }
  }
  template <size_t N>
  Fields<N> Index(const msgpack::object& map, const std::array<std::string_view, N>& keys,
                  std::string_view prefix) {
    Fields<N> fields{};
    Index(map, keys, prefix, fields);
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
  std::optional<transport::Endpoint> EndpointOf(std::span<const uint8_t> bytes,
                                                std::string_view field) {
    if (!ok() || bytes.size() < kPortSize) return std::nullopt;
    auto address = transport::Address::FromBytes(bytes.first(bytes.size() - kPortSize));
    if (!address) {
      Problem(field, address.error().message);
      return std::nullopt;
    }
    const auto port = static_cast<uint16_t>(bytes[bytes.size() - 2] << 8 | bytes.back());
    if (port == 0) {
      Problem(field, "port 0 is not a valid peer port");
      return std::nullopt;
    }
    return transport::Endpoint(*address, port);
  }

 private:
  bool Present(const msgpack::object* object, std::string_view field) {
    if (!ok()) return false;
    if (!object) Problem(field, "missing");
    return object != nullptr;
  }

  std::optional<transport::Error> error_;
};

}  // namespace skillnode::kademlia::wire::wire_internal

#endif  // SKILLNODE_KADEMLIA_WIRE_WIRE_FIELD_READER_H_
