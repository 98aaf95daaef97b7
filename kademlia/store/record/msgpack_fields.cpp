// MsgpackFields (msgpack_fields.h): typed reads of a signed value's msgpack array, and its
// unknown trailing elements kept and written back as they came.
#include "kademlia/store/record/msgpack_fields.h"

#include <algorithm>
#include <cassert>

namespace skillnode::kademlia::store {

MsgpackFields::MsgpackFields(const msgpack::object& array) : array_(array) {
  assert(array.type == msgpack::type::ARRAY);
}

std::string MsgpackFields::ArrayProblem(const msgpack::object& object, uint32_t known_min,
                                        uint32_t known_max, uint32_t extra_max) {
  assert(known_min <= known_max);
  if (object.type != msgpack::type::ARRAY || object.via.array.size < known_min) {
    return "expected an array of " + std::to_string(known_min) +
           (known_min == known_max ? "" : " to " + std::to_string(known_max)) + " fields";
  }
  const uint32_t size = object.via.array.size;
  if (size <= known_max || size - known_max <= extra_max) return {};
  const uint32_t unknown = size - known_max;
  return std::to_string(size) + " elements: " + std::to_string(unknown) +
         (unknown == 1 ? " unknown one" : " unknown ones") + " after the " +
         std::to_string(known_max) + " this version reads, more than the " +
         std::to_string(extra_max) + " it skips";
}

const msgpack::object* MsgpackFields::Next(std::string_view field) {
  if (!ok()) return nullptr;
  if (index_ >= size()) {
    Fail(field, "missing");
    return nullptr;
  }
  return &array_.via.array.ptr[index_++];
}

const msgpack::object* MsgpackFields::NextOf(std::string_view field,
                                             msgpack::type::object_type type,
                                             std::string_view expected) {
  const msgpack::object* o = Next(field);
  if (o == nullptr) return nullptr;
  if (o->type != type) {
    Wrong(field, expected);
    return nullptr;
  }
  return o;
}

std::string MsgpackFields::Text(std::string_view field) {
  const msgpack::object* o = NextOf(field, msgpack::type::STR, "str");
  return o == nullptr ? std::string() : std::string(o->via.str.ptr, o->via.str.size);
}

uint64_t MsgpackFields::Uint(std::string_view field, uint64_t max) {
  const msgpack::object* o = NextOf(field, msgpack::type::POSITIVE_INTEGER, "uint");
  if (o == nullptr) return 0;
  if (o->via.u64 > max) {
    Fail(field, "out of range");
    return 0;
  }
  return o->via.u64;
}

bool MsgpackFields::Bool(std::string_view field) {
  const msgpack::object* o = NextOf(field, msgpack::type::BOOLEAN, "bool");
  return o != nullptr && o->via.boolean;
}

std::vector<std::string> MsgpackFields::List(std::string_view field) {
  std::vector<std::string> out;
  const msgpack::object* o = NextOf(field, msgpack::type::ARRAY, "array");
  if (o == nullptr) return out;
  for (uint32_t i = 0; i < o->via.array.size; ++i) {
    const msgpack::object& item = o->via.array.ptr[i];
    if (item.type != msgpack::type::STR) {
      Wrong(field, "array of str");
      return {};
    }
    out.emplace_back(item.via.str.ptr, item.via.str.size);
  }
  return out;
}

std::optional<std::array<uint8_t, 32>> MsgpackFields::Bytes32(std::string_view field,
                                                              bool nil_allowed) {
  const msgpack::object* o = Next(field);
  if (o == nullptr) return std::nullopt;
  if (nil_allowed && o->type == msgpack::type::NIL) return std::nullopt;
  std::array<uint8_t, 32> out{};
  if (o->type != msgpack::type::BIN || o->via.bin.size != out.size()) {
    Wrong(field, "bin of 32 bytes");
    return std::nullopt;
  }
  std::copy_n(reinterpret_cast<const uint8_t*>(o->via.bin.ptr), out.size(), out.begin());
  return out;
}

std::vector<uint8_t> MsgpackFields::Bin(std::string_view field, size_t max, bool nil_allowed) {
  const msgpack::object* o = Next(field);
  if (o == nullptr) return {};
  if (nil_allowed && o->type == msgpack::type::NIL) return {};
  if (o->type != msgpack::type::BIN || o->via.bin.size == 0 || o->via.bin.size > max) {
    Wrong(field, "bin of 1.." + std::to_string(max) + " bytes");
    return {};
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(o->via.bin.ptr);
  return std::vector<uint8_t>(bytes, bytes + o->via.bin.size);
}

void MsgpackFields::Wrong(std::string_view field, std::string_view expected) {
  Fail(field, "expected " + std::string(expected));
}

void MsgpackFields::Fail(std::string_view field, std::string_view reason) {
  if (ok()) error_ = std::string(field) + ": " + std::string(reason);
}

bool MsgpackFields::SkipNil() {
  if (!ok() || index_ >= size() || array_.via.array.ptr[index_].type != msgpack::type::NIL) {
    return false;
  }
  ++index_;
  return true;
}

TrailingElements MsgpackFields::Rest() {
  TrailingElements out;
  if (!ok()) return out;
  wire::VectorSink sink(&out.encoded);
  wire::Packer packer(sink);
  // Packing recurses into arrays and maps as deep as the unpack limits let the array's
  // elements go; msgpack::packer writes each value in its shortest form.
  for (; index_ < size(); ++index_) {
    packer.pack(array_.via.array.ptr[index_]);
    ++out.count;
  }
  sink.Finish();
  return out;
}

void AppendTrailing(wire::VectorSink& sink, const TrailingElements& trailing) {
  assert((trailing.count == 0) == trailing.encoded.empty());
  sink.write(reinterpret_cast<const char*>(trailing.encoded.data()), trailing.encoded.size());
}

}  // namespace skillnode::kademlia::store
