// ES6 number text (node/jose/es6_number.h): RFC 8785 Appendix B's table, each value checked
// against Node.js's Number.prototype.toString when the test was written, plus the notation
// boundaries and the integers that have no exact form.
#include "node/jose/es6_number.h"

#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace skillnode::node::jose {
namespace {

std::string Text(double value) {
  auto text = Es6NumberText(value);
  REQUIRE(text);
  return *text;
}

TEST_CASE("numbers are written as RFC 8785 Appendix B writes them", "[unit]") {
  const std::vector<std::pair<uint64_t, std::string>> table = {
      {0x0000000000000000, "0"},
      {0x8000000000000000, "0"},
      {0x0000000000000001, "5e-324"},
      {0x8000000000000001, "-5e-324"},
      {0x7fefffffffffffff, "1.7976931348623157e+308"},
      {0xffefffffffffffff, "-1.7976931348623157e+308"},
      {0x4340000000000000, "9007199254740992"},
      {0xc340000000000000, "-9007199254740992"},
      {0x4430000000000000, "295147905179352830000"},
      {0x44b52d02c7e14af5, "9.999999999999997e+22"},
      {0x44b52d02c7e14af6, "1e+23"},
      {0x44b52d02c7e14af7, "1.0000000000000001e+23"},
      {0x444b1ae4d6e2ef4e, "999999999999999700000"},
      {0x444b1ae4d6e2ef4f, "999999999999999900000"},
      {0x444b1ae4d6e2ef50, "1e+21"},
      {0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
      {0x3eb0c6f7a0b5ed8d, "0.000001"},
      {0x41b3de4355555553, "333333333.3333332"},
      {0x41b3de4355555554, "333333333.33333325"},
      {0x41b3de4355555555, "333333333.3333333"},
      {0x41b3de4355555556, "333333333.3333334"},
      {0x41b3de4355555557, "333333333.33333343"},
      {0xbecbf647612f3696, "-0.0000033333333333333333"},
      {0x43143ff3c1cb0959, "1424953923781206.2"},
  };
  for (const auto& [bits, expected] : table) {
    INFO(std::hex << bits);
    CHECK(Text(std::bit_cast<double>(bits)) == expected);
  }
}

TEST_CASE("plain notation runs from 1e-6 up to below 1e21, exponent notation outside it",
          "[unit]") {
  CHECK(Text(1e20) == "100000000000000000000");
  CHECK(Text(1e21) == "1e+21");
  CHECK(Text(1.5e-6) == "0.0000015");
  CHECK(Text(1e-7) == "1e-7");
  CHECK(Text(-1e-7) == "-1e-7");
  CHECK(Text(5e-7) == "5e-7");
  CHECK(Text(1.25e-7) == "1.25e-7");
  CHECK(Text(123e-7) == "0.0000123");
  CHECK(Text(0.1) == "0.1");
  CHECK(Text(1.0 / 3) == "0.3333333333333333");
  CHECK(Text(100) == "100");
  CHECK(Text(4.5) == "4.5");
  CHECK(Text(1e30) == "1e+30");
}

TEST_CASE("NaN and the infinities have no JSON number", "[unit]") {
  for (double value :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    auto text = Es6NumberText(value);
    REQUIRE_FALSE(text);
    CHECK(text.error().code == transport::ErrorCode::kInvalidArgument);
  }
}

TEST_CASE("integers are exact up to 2^53 and beyond it only when they are doubles", "[unit]") {
  CHECK(*Es6IntegerText(int64_t{0}) == "0");
  CHECK(*Es6IntegerText(int64_t{-42}) == "-42");
  CHECK(*Es6IntegerText(int64_t{9007199254740992}) == "9007199254740992");
  CHECK(*Es6IntegerText(int64_t{-9007199254740992}) == "-9007199254740992");
  CHECK(*Es6IntegerText(int64_t{1} << 60) == "1152921504606847000");  // as JavaScript has it
  CHECK(*Es6IntegerText(std::numeric_limits<int64_t>::min()) == "-9223372036854776000");
  CHECK(*Es6IntegerText(uint64_t{10000000000000000000u}) == "10000000000000000000");
  for (int64_t inexact : {int64_t{9007199254740993}, std::numeric_limits<int64_t>::max()}) {
    auto text = Es6IntegerText(inexact);
    REQUIRE_FALSE(text);
    CHECK(text.error().message.find("not exactly an IEEE 754 double") != std::string::npos);
  }
  CHECK_FALSE(Es6IntegerText(std::numeric_limits<uint64_t>::max()));
}

}  // namespace
}  // namespace skillnode::node::jose
