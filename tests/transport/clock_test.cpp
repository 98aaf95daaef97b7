#include "transport/clock.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <type_traits>

#include "transport/result.h"

namespace skillnode::transport {
namespace {

// The point of the tag clock: these must not compile, so they are checked as concepts.
template <typename A, typename B>
concept Comparable = requires(A a, B b) {
  a < b;
};
template <typename A, typename B>
concept Subtractable = requires(A a, B b) {
  a - b;
};

static_assert(!Comparable<TimePoint, std::chrono::steady_clock::time_point>);
static_assert(!Subtractable<TimePoint, std::chrono::system_clock::time_point>);
static_assert(!std::is_convertible_v<std::chrono::steady_clock::time_point, TimePoint>);
static_assert(Comparable<TimePoint, TimePoint>);

TEST_CASE("time points of the node clock do arithmetic with durations", "[unit]") {
  const TimePoint start = kTimeZero + Seconds(10);
  const TimePoint later = start + Millis(1500);
  CHECK(later - start == Millis(1500));
  CHECK(ToMillis(later - start) == Approx(1500.0));
  CHECK(later < kTimeNever);
}

TEST_CASE("errors print their class and message", "[unit]") {
  Result<int> r = Fail(ErrorCode::kParse, "odd number of hex digits");
  REQUIRE_FALSE(r);
  CHECK(r.error().ToString() == "parse: odd number of hex digits");
  Result<int> ok = 3;
  CHECK(ok.value() == 3);
}

}  // namespace
}  // namespace skillnode::transport
