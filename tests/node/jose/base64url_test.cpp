// Base64url (node/jose/base64url.h): RFC 4648's test vectors without padding, the URL-safe
// alphabet, and every text that is not exactly one encoding refused.
#include "node/jose/base64url.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace skillnode::node::jose {
namespace {

std::string Decoded(std::string_view text) {
  auto bytes = Base64UrlDecode(text);
  REQUIRE(bytes);
  return std::string(bytes->begin(), bytes->end());
}

TEST_CASE("base64url encodes RFC 4648's test vectors without padding", "[unit]") {
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", ""},           {"f", "Zg"},          {"fo", "Zm8"},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    CHECK(Base64UrlEncode(plain) == encoded);
    CHECK(Decoded(encoded) == plain);
  }
}

TEST_CASE("base64url uses - and _ where base64 has + and /", "[unit]") {
  const std::vector<uint8_t> bytes = {0xfb, 0xff, 0xbf};
  CHECK(Base64UrlEncode(bytes) == "-_-_");
  auto back = Base64UrlDecode("-_-_");
  REQUIRE(back);
  CHECK(*back == bytes);
}

TEST_CASE("base64url decoding refuses padding, other alphabets, truncation and spare bits",
          "[unit]") {
  for (const char* bad : {"Zg==", "Zm9v+A", "Zm9v/A", "Zm 9v", "Z", "Zm9vY", "Zh", "Zm9"}) {
    INFO(bad);
    auto decoded = Base64UrlDecode(bad);
    REQUIRE_FALSE(decoded);
    CHECK(decoded.error().code == transport::ErrorCode::kParse);
  }
  auto bad_char = Base64UrlDecode("Zg=");
  REQUIRE_FALSE(bad_char);
  CHECK(bad_char.error().message.find("'=' at offset 2") != std::string::npos);
  auto spare = Base64UrlDecode("Zh");  // "f" is "Zg": "Zh" sets a bit the encoding never uses
  REQUIRE_FALSE(spare);
  CHECK(spare.error().message.find("not canonical") != std::string::npos);
}

TEST_CASE("base64url decoding refuses a text over its limit", "[unit]") {
  auto decoded = Base64UrlDecode(std::string(kBase64UrlTextMax + 4, 'A'));
  REQUIRE_FALSE(decoded);
  CHECK(decoded.error().message.find("over the limit") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::jose
