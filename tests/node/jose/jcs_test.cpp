// Canonical JSON (node/jose/jcs.h): RFC 8785's own examples (§3.2.2 and §3.2.3), the string
// escapes JSON.stringify makes, member order by UTF-16 code units, and every value that has no
// canonical form refused with where it is.
#include "node/jose/jcs.h"

#include <catch2/catch.hpp>
#include <limits>
#include <string>

namespace skillnode::node::jose {
namespace {

using nlohmann::json;

std::string Canonical(const json& value) {
  auto text = CanonicalJson(value);
  REQUIRE(text);
  return *text;
}

std::string Canonical(const char* text) { return Canonical(json::parse(text)); }

TEST_CASE("the RFC 8785 §3.2.2 example canonicalizes to the RFC's bytes", "[unit]") {
  const char* input = R"({
    "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
    "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
    "literals": [null, true, false]
  })";
  CHECK(Canonical(input) ==
        "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
        "\"string\":\"\xE2\x82\xAC$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
}

TEST_CASE("members are sorted by UTF-16 code units as RFC 8785 §3.2.3 shows", "[unit]") {
  const char* input = R"({
    "\u20ac": "Euro Sign",
    "\r": "Carriage Return",
    "\ufb33": "Hebrew Letter Dalet With Dagesh",
    "1": "One",
    "\ud83d\ude00": "Emoji: Grinning Face",
    "\u0080": "Control",
    "\u00f6": "Latin Small Letter O With Diaeresis"
  })";
  // UTF-8 byte order would put U+FB33 (EF AC B3) before U+1F600 (F0 9F 98 80); UTF-16 puts the
  // surrogate D83D first.
  CHECK(Canonical(input) ==
        "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xC2\x80\":\"Control\","
        "\"\xC3\xB6\":\"Latin Small Letter O With Diaeresis\",\"\xE2\x82\xAC\":\"Euro Sign\","
        "\"\xF0\x9F\x98\x80\":\"Emoji: Grinning Face\","
        "\"\xEF\xAC\xB3\":\"Hebrew Letter Dalet With Dagesh\"}");
}

TEST_CASE("strings are escaped exactly as JSON.stringify escapes them", "[unit]") {
  const std::string raw = std::string("\x00\x1f", 2) + "\x7f\xE2\x80\xA8/\"\\\b\f\n\r\t";
  // Node.js: JSON.stringify("\u0000\u001f\u007f\u2028/\"\\\b\f\n\r\t")
  CHECK(*JsonStringLiteral(raw) == "\"\\u0000\\u001f\x7f\xE2\x80\xA8/\\\"\\\\\\b\\f\\n\\r\\t\"");
}

TEST_CASE("nested values keep array order and sort every object, with no white space", "[unit]") {
  CHECK(Canonical(R"({"b": [3, {"z": 1, "a": [true]}], "a": {}, "c": []})") ==
        R"({"a":{},"b":[3,{"a":[true],"z":1}],"c":[]})");
  CHECK(Canonical(json("plain")) == "\"plain\"");
  CHECK(Canonical(json(nullptr)) == "null");
  CHECK(Canonical(json(-0.0)) == "0");
}

TEST_CASE("text that is not UTF-8 is refused, in strings and in member names", "[unit]") {
  for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80"}) {
    INFO(bad);
    auto value = CanonicalJson(json{{"k", {{"nested", std::string(bad)}}}});
    REQUIRE_FALSE(value);
    CHECK(value.error().message.find("not UTF-8") != std::string::npos);
    CHECK(value.error().message.find("/k/nested") != std::string::npos);
    auto name = CanonicalJson(json{{std::string(bad), 1}});
    REQUIRE_FALSE(name);
    CHECK(name.error().message.find("member name is not UTF-8") != std::string::npos);
  }
}

TEST_CASE("numbers without an exact JSON form are refused with their place", "[unit]") {
  auto nan = CanonicalJson(json{{"a", {1, std::numeric_limits<double>::quiet_NaN()}}});
  REQUIRE_FALSE(nan);
  CHECK(nan.error().message.find("NaN at /a/1") != std::string::npos);
  auto big = CanonicalJson(json{{"n", int64_t{9007199254740993}}});
  REQUIRE_FALSE(big);
  CHECK(big.error().message.find("at /n") != std::string::npos);
  CHECK(Canonical(json{{"n", int64_t{9007199254740992}}}) == R"({"n":9007199254740992})");
}

TEST_CASE("binary values and nesting past the limit are refused", "[unit]") {
  auto binary = CanonicalJson(json{{"b", json::binary({1, 2})}});
  REQUIRE_FALSE(binary);
  CHECK(binary.error().message.find("binary") != std::string::npos);
  json deep = 1;
  for (size_t i = 0; i < kJcsDepthMax; ++i) deep = json::array({deep});
  CHECK(CanonicalJson(deep));
  deep = json::array({deep});
  auto too_deep = CanonicalJson(deep);
  REQUIRE_FALSE(too_deep);
  CHECK(too_deep.error().message.find("nested deeper than") != std::string::npos);
}

TEST_CASE("member names with / and ~ are escaped in error pointers", "[unit]") {
  auto bad = CanonicalJson(json{{"a/b~c", std::numeric_limits<double>::infinity()}});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("at /a~1b~0c") != std::string::npos);
}

}  // namespace
}  // namespace skillnode::node::jose
