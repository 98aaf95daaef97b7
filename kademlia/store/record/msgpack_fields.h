// MsgpackFields: reads the fields of a signed value's msgpack array in order (a skill record,
// its descriptor and origin: skill_record_decode.cpp; a term pointer: term_pointer.cpp), each by
// its expected type, naming the field and the problem in its error ("agentId: expected str").
// It reads straight from msgpack::object's tagged union after a type check (never with
// object::as<T>(), which throws), so nothing here throws on input.
//
// Borrows the array it reads (owned by the caller's msgpack::object_handle, which must outlive
// it); keeps the first problem and reads nothing after it. Not thread-safe.
#ifndef SKILLNODE_KADEMLIA_STORE_RECORD_MSGPACK_FIELDS_H_
#define SKILLNODE_KADEMLIA_STORE_RECORD_MSGPACK_FIELDS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// msgpack-cxx builds warning-free with -Wall -Wextra -Wpedantic -Werror (see msgpack_out.h).
#include <msgpack.hpp>

#include "kademlia/store/record/trailing_elements.h"
#include "kademlia/wire/msgpack_out.h"

namespace skillnode::kademlia::store {

class MsgpackFields {
 public:
  // `array` must be a msgpack array (asserted).
  explicit MsgpackFields(const msgpack::object& array);
  MsgpackFields(const MsgpackFields&) = delete;
  MsgpackFields& operator=(const MsgpackFields&) = delete;

  // Empty when `object` is an array of known_min..known_max elements, or of more than
  // known_max with at most extra_max unknown ones after them; otherwise the problem, without a
  // field name: "expected an array of 16 to 19 fields", or for too many unknown elements
  // "28 elements: 9 unknown ones after the 19 this version reads, more than the 8 it skips".
  static std::string ArrayProblem(const msgpack::object& object, uint32_t known_min,
                                  uint32_t known_max, uint32_t extra_max);

  bool ok() const { return error_.empty(); }
  // "<field>: <reason>" of the first problem; empty while ok().
  const std::string& error() const { return error_; }
  uint32_t size() const { return array_.via.array.size; }

  // The next element, or nullptr after a problem or past the end ("<field>: missing").
  const msgpack::object* Next(std::string_view field);
  std::string Text(std::string_view field);
  // A positive integer of at most `max` ("<field>: out of range" above it).
  uint64_t Uint(std::string_view field, uint64_t max);
  bool Bool(std::string_view field);
  // An array of str.
  std::vector<std::string> List(std::string_view field);
  // A bin of exactly 32 bytes (a key or a digest), or nil when `nil_allowed` (nullopt).
  std::optional<std::array<uint8_t, 32>> Bytes32(std::string_view field, bool nil_allowed = false);
  // A bin of 1..max bytes, or nil when `nil_allowed` (empty).
  std::vector<uint8_t> Bin(std::string_view field, size_t max, bool nil_allowed = false);
  // Records "<field>: expected <expected>" unless a problem is already recorded.
  void Wrong(std::string_view field, std::string_view expected);
  // Records "<field>: <reason>" unless a problem is already recorded.
  void Fail(std::string_view field, std::string_view reason);

  // Consumes the next element when it is nil (an optional field left out before later ones);
  // whether it did. False after a problem or at the end.
  bool SkipNil();

  // Every element after those read so far, as their msgpack encoding (the shortest, as
  // msgpack::packer writes it), and consumes them. The caller bounds their count with
  // ArrayProblem; their depth and size are bounded by the limits the array was unpacked with.
  TrailingElements Rest();

 private:
  const msgpack::object* NextOf(std::string_view field, msgpack::type::object_type type,
                                std::string_view expected);

  const msgpack::object& array_;
  uint32_t index_ = 0;
  std::string error_;
};

// Writes `trailing`'s elements as they came, after the fields an encoder knows (whose array
// header counts them too).
void AppendTrailing(wire::VectorSink& sink, const TrailingElements& trailing);

}  // namespace skillnode::kademlia::store

#endif  // SKILLNODE_KADEMLIA_STORE_RECORD_MSGPACK_FIELDS_H_
