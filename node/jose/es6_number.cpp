// Es6NumberText (es6_number.h): std::to_chars' shortest round-trip digits (which, like ES, break
// a tie between equally short candidates towards the one nearest the value), reshaped into
// Number::toString's notation.
#include "node/jose/es6_number.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace skillnode::node::jose {
namespace {

using transport::ErrorCode;
using transport::Fail;

// ES2015 §7.1.12.1 step 5: value = 0.digits × 10^point_position, digits without trailing
// zeros; then steps 6 to 10 choose the notation.
std::string Notation(const std::string& digits, int point_position) {
  const int k = static_cast<int>(digits.size());
  const int n = point_position;
  if (k <= n && n <= 21) return digits + std::string(static_cast<size_t>(n - k), '0');
  if (0 < n && n <= 21) return digits.substr(0, n) + "." + digits.substr(n);
  if (-6 < n && n <= 0) return "0." + std::string(static_cast<size_t>(-n), '0') + digits;
  const int exponent = n - 1;
  std::string out = digits.substr(0, 1);
  if (k > 1) out += "." + digits.substr(1);
  out += exponent < 0 ? "e-" : "e+";
  out += std::to_string(exponent < 0 ? -exponent : exponent);
  return out;
}

template <typename Int>
transport::Result<std::string> IntegerText(Int value) {
  const double d = static_cast<double>(value);
  // 2^63 (2^64 unsigned): the nearest double of a value just below it may be it, and casting
  // that back would be undefined.
  constexpr double kCastLimit =
      std::is_signed_v<Int> ? 9223372036854775808.0 : 18446744073709551616.0;
  if (d >= kCastLimit || static_cast<Int>(d) != value) {
    return Fail(ErrorCode::kInvalidArgument,
                "the integer " + std::to_string(value) +
                    " is not exactly an IEEE 754 double, so canonical JSON (RFC 8785) would "
                    "change it; send it as a string");
  }
  return Es6NumberText(d);
}

}  // namespace

transport::Result<std::string> Es6NumberText(double value) {
  if (std::isnan(value) || std::isinf(value)) {
    return Fail(ErrorCode::kInvalidArgument,
                std::string("JSON has no number ") + (std::isnan(value) ? "NaN" : "Infinity"));
  }
  if (value == 0) return std::string("0");  // -0 too
  if (value < 0) {
    auto positive = Es6NumberText(-value);
    assert(positive);
    return "-" + *positive;
  }
  // Shortest round-trip, scientific: "d[.ddd]e[+-]x"; at most 17 digits and a 3-digit exponent.
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                          std::chars_format::scientific);
  assert(error == std::errc());
  const std::string_view text(buffer.data(), static_cast<size_t>(end - buffer.data()));
  const size_t e = text.find('e');
  assert(e != std::string_view::npos);
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits += c;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exponent = 0;
  const std::string_view exponent_text = text.substr(e + 1);
  const size_t skip = exponent_text.front() == '+' ? 1 : 0;
  std::from_chars(exponent_text.data() + skip, exponent_text.data() + exponent_text.size(),
                  exponent);
  return Notation(digits, exponent + 1);
}

transport::Result<std::string> Es6IntegerText(int64_t value) { return IntegerText(value); }
transport::Result<std::string> Es6IntegerText(uint64_t value) { return IntegerText(value); }

}  // namespace skillnode::node::jose
