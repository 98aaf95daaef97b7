#include "transport/rng.h"

#include <catch2/catch.hpp>
#include <vector>

namespace skillnode::transport {
namespace {

TEST_CASE("the same seed gives the same stream", "[unit]") {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next64();
    CHECK(x == b.Next64());
    differs |= x != c.Next64();
  }
  CHECK(differs);
}

TEST_CASE("the generator matches the reference splitmix64 and xoshiro256** outputs", "[unit]") {
  // splitmix64 from state 0: the first output of the reference implementation.
  uint64_t state = 0;
  CHECK(SplitMix64(&state) == 0xe220a8397b1dcdafULL);
  // xoshiro256** seeded by four splitmix64 outputs from seed 1, as computed by an independent
  // transcription of Blackman & Vigna's reference code. The simulator's reproducibility rests on
  // this stream: a change here changes every trace hash.
  Rng rng(1);
  CHECK(rng.Next64() == 0xb3f2af6d0fc710c5ULL);
  CHECK(rng.Next64() == 0x853b559647364ceaULL);
  CHECK(rng.Next64() == 0x92f89756082a4514ULL);
}

TEST_CASE("Below stays in range and reaches every value", "[unit]") {
  Rng rng(7);
  std::vector<int> seen(10, 0);
  for (int i = 0; i < 10000; ++i) {
    const uint64_t v = rng.Below(10);
    REQUIRE(v < 10);
    ++seen[v];
  }
  for (int count : seen) {
    CHECK(count > 800);  // expected 1000 each; a broken generator lands far off
    CHECK(count < 1200);
  }
}

TEST_CASE("Between is inclusive on both ends and handles the full range", "[unit]") {
  Rng rng(9);
  bool lo = false, hi = false;
  for (int i = 0; i < 1000; ++i) {
    const int64_t v = rng.Between(-2, 2);
    REQUIRE(v >= -2);
    REQUIRE(v <= 2);
    lo |= v == -2;
    hi |= v == 2;
  }
  CHECK(lo);
  CHECK(hi);
  (void)rng.Between(INT64_MIN, INT64_MAX);  // must not divide by zero or overflow
  CHECK(rng.Between(5, 5) == 5);
}

TEST_CASE("NextDouble is in [0, 1) and Chance honours its bounds", "[unit]") {
  Rng rng(3);
  double sum = 0;
  for (int i = 0; i < 10000; ++i) {
    const double d = rng.NextDouble();
    REQUIRE(d >= 0.0);
    REQUIRE(d < 1.0);
    sum += d;
  }
  CHECK(sum / 10000 == Approx(0.5).margin(0.02));
  CHECK_FALSE(rng.Chance(0.0));
  CHECK(rng.Chance(1.0));
}

TEST_CASE("Shuffle is a deterministic permutation", "[unit]") {
  std::vector<int> a{1, 2, 3, 4, 5, 6, 7, 8}, b = a;
  Rng r1(11), r2(11);
  r1.Shuffle(a);
  r2.Shuffle(b);
  CHECK(a == b);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("Fill covers buffers of any length and a fork is independent", "[unit]") {
  Rng rng(5);
  std::vector<uint8_t> buffer(13, 0);
  rng.Fill(buffer);
  CHECK(std::count(buffer.begin(), buffer.end(), 0) < 4);
  Rng child = rng.Fork();
  CHECK(child.Next64() != rng.Next64());
}

}  // namespace
}  // namespace skillnode::transport
