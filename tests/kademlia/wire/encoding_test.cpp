#include "kademlia/wire/encoding.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::kademlia::wire {
namespace {

TEST_CASE("hex encodes lower case and decodes either case", "[unit]") {
  const std::vector<uint8_t> bytes{0x00, 0xab, 0xff, 0x10};
  CHECK(HexEncode(bytes) == "00abff10");
  CHECK(*HexDecode("00ABff10") == bytes);
  CHECK(HexEncode({}).empty());
  CHECK(HexDecode("")->empty());
}

TEST_CASE("bad hex is an error naming the problem", "[unit]") {
  auto odd = HexDecode("abc");
  REQUIRE_FALSE(odd);
  CHECK_THAT(odd.error().message, Catch::Contains("odd number"));
  auto bad = HexDecode("zz");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains("position 0"));
  CHECK_FALSE(HexDecode("00 1"));
  CHECK_FALSE(HexDecode(std::string("0\0", 2)));
}

TEST_CASE("base64 follows RFC 4648 test vectors", "[unit]") {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (auto [plain, encoded] : vectors) {
    INFO(plain);
    CHECK(Base64Encode(AsBytes(plain)) == encoded);
    auto back = Base64Decode(encoded);
    REQUIRE(back);
    CHECK(std::string(back->begin(), back->end()) == plain);
  }
}

TEST_CASE("bad base64 is an error", "[unit]") {
  CHECK_FALSE(Base64Decode("Zg="));    // bad padding
  CHECK_FALSE(Base64Decode("Z!=="));   // bad character
  CHECK_FALSE(Base64Decode("Zm9vY"));  // truncated
}

}  // namespace
}  // namespace skillnode::kademlia::wire
