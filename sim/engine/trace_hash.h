// TraceHash: a running 64-bit digest of everything that happened in a run.
//
// The simulator feeds it every delivered datagram (time, sender, receiver, bytes) and every
// lookup result, in event order; two runs of one scenario and seed must end with the same
// value (docs/architecture.md "Code rules": one seed reproduces a whole run). It is a fast
// multiply-xorshift mix over 8-byte words, not a cryptographic hash: it detects divergence, it does
// not resist forgery.
#ifndef SKILLNODE_SIM_ENGINE_TRACE_HASH_H_
#define SKILLNODE_SIM_ENGINE_TRACE_HASH_H_

#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace skillnode::sim::engine {

class TraceHash {
 public:
  void Add(uint64_t word) {
    state_ = (state_ ^ word) * kMultiplier;
    state_ ^= state_ >> 29;
  }

  void AddBytes(std::span<const uint8_t> bytes) {
    Add(bytes.size());
    size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) {
      uint64_t word;
      std::memcpy(&word, bytes.data() + i, 8);
      Add(word);
    }
    uint64_t tail = 0;
    if (i < bytes.size()) std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
    Add(tail);
  }

  uint64_t value() const { return state_; }

  // 16 lower-case hex digits.
  static std::string Hex(uint64_t value) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, value >>= 4) out[static_cast<size_t>(i)] = kDigits[value & 15];
    return out;
  }

 private:
  static constexpr uint64_t kMultiplier = 0x9e3779b97f4a7c15ULL;
  uint64_t state_ = 0x6a09e667f3bcc908ULL;
};

}  // namespace skillnode::sim::engine

#endif  // SKILLNODE_SIM_ENGINE_TRACE_HASH_H_
