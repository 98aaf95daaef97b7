#include "transport/rng.h"

#include <cassert>
#include <cstring>

namespace skillnode::transport {
namespace {

// 128-bit products for Lemire's method; __extension__ keeps -Wpedantic quiet about the type.
__extension__ typedef unsigned __int128 Uint128;

constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  // splitmix64 expands one word into four and never yields the all-zero state xoshiro forbids
  // in practice; the assertion documents the requirement.
  uint64_t s = seed;
  for (auto& word : state_) word = SplitMix64(&s);
  assert((state_[0] | state_[1] | state_[2] | state_[3]) != 0);
}

uint64_t Rng::Next64() {
  // xoshiro256** 1.0 (Blackman & Vigna).
  const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = Rotl(state_[3], 45);
  return result;
}

uint64_t Rng::Below(uint64_t bound) {
  assert(bound > 0);
  Uint128 m = static_cast<Uint128>(Next64()) * bound;
  auto low = static_cast<uint64_t>(m);
  if (low < bound) {
    const uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      m = static_cast<Uint128>(Next64()) * bound;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

int64_t Rng::Between(int64_t lo, int64_t hi) {
  assert(lo <= hi);
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (span == std::numeric_limits<uint64_t>::max()) return static_cast<int64_t>(Next64());
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + Below(span + 1));
}

double Rng::NextDouble() { return static_cast<double>(Next64() >> 11) * 0x1.0p-53; }

bool Rng::Chance(double p) {
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  return NextDouble() < p;
}

void Rng::Fill(std::span<uint8_t> out) {
  size_t i = 0;
  while (i < out.size()) {
    const uint64_t word = Next64();
    const size_t n = std::min(out.size() - i, sizeof(word));
    std::memcpy(out.data() + i, &word, n);
    i += n;
  }
}

Rng Rng::Fork() { return Rng(Next64()); }

}  // namespace skillnode::transport
