// Rng: a seeded, deterministic random number generator (xoshiro256**, seeded by splitmix64).
//
// Every random choice in kademlia/, discovery/ and sim/ comes from an Rng handed in by the
// Env, so one seed reproduces a whole simulated run. The helpers below are defined here rather
// than taken from <random>, whose distributions differ between standard libraries.
// Not thread-safe; one per node.
#ifndef SKILLNODE_TRANSPORT_RNG_H_
#define SKILLNODE_TRANSPORT_RNG_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

namespace skillnode::transport {

// One step of splitmix64: advances *state and returns a well-mixed 64-bit value.
uint64_t SplitMix64(uint64_t* state);

class Rng {
 public:
  explicit Rng(uint64_t seed);

  // Satisfies std::uniform_random_bit_generator.
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }
  result_type operator()() { return Next64(); }

  uint64_t Next64();
  // Uniform in [0, bound); bound must be > 0. Unbiased (Lemire's multiply-and-reject).
  uint64_t Below(uint64_t bound);
  // Uniform in [lo, hi], inclusive; lo <= hi.
  int64_t Between(int64_t lo, int64_t hi);
  // Uniform in [0, 1) with 53 random bits.
  double NextDouble();
  // True with probability p (p <= 0: never, p >= 1: always).
  bool Chance(double p);
  void Fill(std::span<uint8_t> out);

  // Fisher-Yates shuffle with this generator (deterministic across standard libraries).
  template <typename Container>
  void Shuffle(Container& items) {
    for (size_t i = items.size(); i > 1; --i) {
      size_t j = static_cast<size_t>(Below(i));
      using std::swap;
      swap(items[i - 1], items[j]);
    }
  }

  // A new generator whose stream is independent of this one (for per-node generators).
  Rng Fork();

 private:
  std::array<uint64_t, 4> state_;
};

}  // namespace skillnode::transport

#endif  // SKILLNODE_TRANSPORT_RNG_H_
