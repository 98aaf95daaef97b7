#include "kademlia/key.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "kademlia/wire/encoding.h"

namespace skillnode::kademlia {
namespace {

Key HexKey(const std::string& hex) { return *Key::FromHex(hex); }

TEST_CASE("a key is the SHA-256 of its bytes", "[unit]") {
  // FIPS 180-2 test vector for "abc".
  CHECK(Key::Sha256("abc").ToHex() ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(Key::Sha256("").ToHex() ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("a key round-trips through hex in either case", "[unit]") {
  const Key k = Key::Sha256("skill:demo");
  auto back = Key::FromHex(k.ToHex());
  REQUIRE(back);
  CHECK(*back == k);
  std::string upper = k.ToHex();
  for (char& c : upper) c = static_cast<char>(std::toupper(c));
  CHECK(*Key::FromHex(upper) == k);
  CHECK(k.ShortHex() == k.ToHex().substr(0, 8));
}

TEST_CASE("bad hex and wrong lengths are errors, never exceptions", "[unit]") {
  CHECK_FALSE(Key::FromHex(""));
  CHECK_FALSE(Key::FromHex("abc"));                 // odd length, too short
  CHECK_FALSE(Key::FromHex(std::string(63, 'a')));  // odd length
  CHECK_FALSE(Key::FromHex(std::string(66, 'a')));  // too long
  auto bad_digit = Key::FromHex(std::string(63, 'a') + "g");
  REQUIRE_FALSE(bad_digit);
  CHECK_THAT(bad_digit.error().message, Catch::Contains("position 63"));
  const std::vector<uint8_t> short_bytes(31, 1), long_bytes(33, 1);
  auto too_short = Key::FromBytes(short_bytes);
  REQUIRE_FALSE(too_short);
  CHECK_THAT(too_short.error().message, Catch::Contains("not 31"));
  CHECK_FALSE(Key::FromBytes(long_bytes));
  CHECK_FALSE(Key::FromBytes({}));
}

TEST_CASE("XOR distance is symmetric, zero only to itself, and obeys XOR's triangle", "[unit]") {
  const Key a = Key::Sha256("a"), b = Key::Sha256("b"), c = Key::Sha256("c");
  CHECK(Distance(a, b) == Distance(b, a));
  CHECK(Distance(a, a) == Key());
  CHECK(Distance(a, b) != Key());
  // d(a,c) = d(a,b) XOR d(b,c)
  CHECK(Distance(a, c) == Distance(Distance(a, b), Distance(b, c)));
}

TEST_CASE("distance ordering follows the big-endian value of the XOR", "[unit]") {
  const Key target = HexKey(std::string(64, '0'));
  const Key near = HexKey("01" + std::string(62, '0'));
  const Key far = HexKey("80" + std::string(62, '0'));
  CHECK(CloserTo(target, near, far));
  CHECK_FALSE(CloserTo(target, far, near));
  CHECK_FALSE(CloserTo(target, near, near));
  CHECK(Distance(target, near) < Distance(target, far));
  // Against another target the order flips.
  const Key other = HexKey("ff" + std::string(62, '0'));
  CHECK(CloserTo(other, far, near));
}

TEST_CASE("keys order as their bytes do, whichever word first differs", "[unit]") {
  // One pair differing in each byte, by a high and by a low bit: the word-wise comparison must
  // agree with the byte-wise lexicographic one (the big-endian value) everywhere.
  for (size_t byte = 0; byte < Key::kSize; ++byte) {
    for (uint8_t bit : {uint8_t{0x01}, uint8_t{0x80}}) {
      Key low = Key::Sha256(std::to_string(byte));
      low.mutable_bytes()[byte] &= static_cast<uint8_t>(~bit);
      Key high = low;
      high.mutable_bytes()[byte] |= bit;
      // A larger byte later on must not outweigh the first difference.
      if (byte + 1 < Key::kSize) low.mutable_bytes()[byte + 1] = 0xff;
      if (byte + 1 < Key::kSize) high.mutable_bytes()[byte + 1] = 0x00;
      INFO("byte " << byte << ", bit " << int{bit});
      CHECK(low < high);
      CHECK(high > low);
      CHECK((low <=> high) == (low.bytes() <=> high.bytes()));
      CHECK((low <=> low) == std::strong_ordering::equal);
    }
  }
}

TEST_CASE("common prefix length is the bucket index", "[unit]") {
  const Key zero;
  CHECK(zero.CommonPrefixLength(zero) == 256);
  CHECK(zero.CommonPrefixLength(HexKey("80" + std::string(62, '0'))) == 0);
  CHECK(zero.CommonPrefixLength(HexKey("01" + std::string(62, '0'))) == 7);
  CHECK(zero.CommonPrefixLength(HexKey(std::string(63, '0') + "1")) == 255);
  for (int i = 0; i < 256; i += 17) {
    CHECK(zero.CommonPrefixLength(zero.WithBitFlipped(i)) == i);
    CHECK(zero.WithBitFlipped(i).Bit(i));
    CHECK_FALSE(zero.Bit(i));
  }
}

}  // namespace
}  // namespace skillnode::kademlia
