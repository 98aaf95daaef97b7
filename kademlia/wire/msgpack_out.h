// Writing msgpack into a byte vector: the sink and the str/bin helpers that the wire codec
// (kademlia/wire/wire_encode.cpp, wire_body_writer.cpp) and the canonical skill-record encoding
// (kademlia/store/record/skill_record.cpp) both use, so that both write bytes the same way.
#ifndef SKILLNODE_KADEMLIA_WIRE_MSGPACK_OUT_H_
#define SKILLNODE_KADEMLIA_WIRE_MSGPACK_OUT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

// msgpack-cxx builds warning-free here with -Wall -Wextra -Wpedantic -Werror under g++ 12 and
// clang 14, with and without sanitizers (it is found in /usr/include, a system directory), so
// no diagnostic is silenced.
#include <msgpack.hpp>

namespace skillnode::kademlia::wire {

// The stream msgpack::packer writes to: appends to a vector we own (no copy at the end).
// Writes into `out` from byte 0 on; the caller may size `out` ahead. The vector grows
// (doubling) only when a write does not fit, and is written with memcpy, since msgpack writes
// in many small pieces; Finish() trims it to what was written and must be called before
// `out` is used.
class VectorSink {
 public:
  explicit VectorSink(std::vector<uint8_t>* out) : out_(out) {}
  void write(const char* data, size_t size) {
    if (size == 0) return;  // msgpack writes empty strings as (nullptr, 0): no memcpy from null
    if (used_ + size > out_->size()) out_->resize(std::max(out_->size() * 2, used_ + size));
    std::memcpy(out_->data() + used_, data, size);
    used_ += size;
  }
  void Finish() { out_->resize(used_); }

 private:
  std::vector<uint8_t>* out_;
  size_t used_ = 0;
};
using Packer = msgpack::packer<VectorSink>;

inline void PackStr(Packer& packer, std::string_view text) {
  packer.pack_str(static_cast<uint32_t>(text.size()));
  packer.pack_str_body(text.data(), static_cast<uint32_t>(text.size()));
}

inline void PackBin(Packer& packer, std::span<const uint8_t> bytes) {
  packer.pack_bin(static_cast<uint32_t>(bytes.size()));
  packer.pack_bin_body(reinterpret_cast<const char*>(bytes.data()),
                       static_cast<uint32_t>(bytes.size()));
}

}  // namespace skillnode::kademlia::wire

#endif  // SKILLNODE_KADEMLIA_WIRE_MSGPACK_OUT_H_
